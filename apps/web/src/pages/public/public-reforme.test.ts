import { PUBLIC_MESSAGES, type PublicReformeDetail, percentageText } from '@reformes/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { render } from '../html.ts';
import { fromKey } from './public-paths.ts';
import { startPublicReforme } from './public-reforme.ts';
import { publicReformePageHtml } from './public-reforme-markup.ts';

const REFORME: PublicReformeDetail = {
  id: 4,
  libref: 'Dossier médical partagé',
  typeref: 'SECTORIELLE',
  periodexe: 'Du 01/01/2026 au 31/12/2027',
  date_debut: '2026-01-01',
  date_fin: '2027-12-31',
  etat_mor: 'en_cours',
  etat_label: 'En cours',
  objectif_glob: 'Un dossier par patient',
  popul_cible: 'Patients',
  struct_impl: 'Hôpitaux',
  cadreinst_mor: null,
  montant_prevu: '1500000.00',
  montant_trealise: null,
  nature: { id: 1, libnature: 'Administrative' },
  couverture: { id: 2, lib_couvert: 'Nationale' },
  structure: { id: 3, designation: 'Ministère de la Santé', sigl: 'MS' },
  objectifs: [
    {
      id: 11,
      libobjectif: 'Ouvrir les dossiers',
      percentage: 50,
      results: [
        {
          id: 21,
          libresult: 'Dossiers ouverts',
          indicateur: 'Nombre de dossiers',
          valeur_cible: '1000',
          valeurref: '0',
          status: 1,
          latest: { date: '2026-06-30', valeur_realise: '400', taux_realisat: '40' },
          suivi_results: [
            { date: '2026-03-31', valeur_realise: '100', taux_realisat: '10' },
            { date: '2026-06-30', valeur_realise: '400', taux_realisat: '40' },
          ],
        },
        {
          id: 22,
          libresult: 'Médecins formés',
          indicateur: 'Médecins',
          valeur_cible: '50',
          valeurref: '0',
          status: 0,
          latest: null,
          suivi_results: [],
        },
      ],
    },
  ],
};

function openReforme(address: string) {
  window.history.replaceState(null, '', address);
  render(document.body, publicReformePageHtml());
  return startPublicReforme();
}

describe('public reform page without React (issue 34)', { timeout: 30_000 }, () => {
  it('shows the reform, its objectives, results and charts, and leads back to the list as it was filtered', async () => {
    fakeApi({ 'GET reformes/public/4': { body: { message: 'ok', data: REFORME } } });
    sessionStorage.setItem(fromKey(4), '?typeref=SECTORIELLE');
    await openReforme('/accueil/reformes/4');
    expect(screen.getByRole('heading', { level: 1, name: REFORME.libref })).toBeInTheDocument();
    expect(document.title).toBe(`${REFORME.libref} — Réformes`);
    expect(screen.getByRole('link', { name: PUBLIC_MESSAGES.backToList })).toHaveAttribute('href', '/accueil?typeref=SECTORIELLE');
    const general = screen.getByRole('region', { name: PUBLIC_MESSAGES.generalInfo });
    expect(general).toHaveTextContent('Ministère de la Santé (MS)');
    expect(general).toHaveTextContent(/1\s500\s000,00\s€/);
    const objective = screen.getByRole('article', { name: 'Ouvrir les dossiers' });
    expect(within(objective).getByRole('progressbar', { name: 'Résultats validés : Ouvrir les dossiers' })).toHaveAttribute(
      'aria-valuetext',
      percentageText(50),
    );
    const results = within(objective).getByRole('table', { name: 'Résultats attendus : Ouvrir les dossiers' });
    expect(within(results).getAllByRole('row')).toHaveLength(3);
    expect(results).toHaveTextContent(PUBLIC_MESSAGES.noLatest);
    // One chart, for the result that has measures; its figures as a table on demand.
    const chart = within(objective).getByRole('img', { name: 'Évolution de la valeur réalisée : Dossiers ouverts' });
    expect(chart).toHaveAccessibleDescription(/Valeurs réalisées : 31 mars 2026 : 100 ; 30 juin 2026 : 400/);
    const show = within(objective).getByRole('button', { name: 'Afficher les données du graphique' });
    await userEvent.click(show);
    expect(show).toHaveAttribute('aria-expanded', 'true');
    expect(within(objective).getByRole('button', { name: 'Masquer les données du graphique' })).toBeInTheDocument();
    expect(within(objective).getAllByRole('table')).toHaveLength(2);
  });

  it('says that a reform does not exist or is not published', async () => {
    fakeApi({});
    await openReforme('/accueil/reformes/999');
    expect(screen.getByText(PUBLIC_MESSAGES.notFound)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: PUBLIC_MESSAGES.backToList })).toHaveAttribute('href', '/accueil');
  });
});
