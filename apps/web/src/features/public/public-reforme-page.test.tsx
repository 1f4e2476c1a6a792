import { PUBLIC_MESSAGES, SUIVI_MESSAGES } from '@reformes/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { renderApp } from '../../test/render-app.tsx';
import type { PublicReformeDetail } from './public-api.ts';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

const detail: PublicReformeDetail = {
  id: 5,
  libref: 'Guichet unique',
  typeref: 'TRANSVERSALE',
  periodexe: 'Du 15/01/2026 au 31/12/2027',
  date_debut: '2026-01-15',
  date_fin: '2027-12-31',
  etat_mor: 'en_cours',
  etat_label: 'En cours',
  objectif_glob: 'Simplifier la création d’entreprise',
  popul_cible: 'Entreprises',
  struct_impl: 'MS, DGB',
  cadreinst_mor: 'Décret 2026-1',
  montant_prevu: '150000',
  montant_trealise: null,
  nature: { id: 1, libnature: 'Administrative' },
  couverture: { id: 2, lib_couvert: 'Nationale' },
  structure: { id: 3, designation: 'Ministère de la Santé', sigl: 'MS' },
  objectifs: [
    {
      id: 11,
      libobjectif: 'Simplifier les démarches',
      percentage: (2 / 3) * 100,
      results: [
        {
          id: 111,
          libresult: 'Démarches en ligne',
          indicateur: 'Taux de dématérialisation (%)',
          valeur_cible: '100',
          valeurref: '20',
          status: 1,
          latest: { date: '2026-03-15', valeur_realise: '40.5', taux_realisat: '35' },
          suivi_results: [{ date: '2026-03-15', valeur_realise: '40.5', taux_realisat: '35' }],
        },
        {
          id: 112,
          libresult: 'Guichets ouverts',
          indicateur: 'Nombre de guichets',
          valeur_cible: '12',
          valeurref: '0',
          status: 0,
          latest: null,
          suivi_results: [],
        },
      ],
    },
    { id: 12, libobjectif: 'Réduire les délais', percentage: null, results: [] },
  ],
};

describe('public page of a published reform', { timeout: 60_000 }, () => {
  it('shows the general information, each objective with its progress and each result with its latest value', async () => {
    fakeApi({ 'GET reformes/public/5': { body: { message: 'ok', data: detail } } });
    renderApp('/accueil/reformes/5');
    const main = await screen.findByRole('main');
    expect(await within(main).findByRole('heading', { name: 'Guichet unique', level: 1 })).toBeInTheDocument();

    const info = screen.getByRole('region', { name: PUBLIC_MESSAGES.generalInfo });
    const field = (term: string) => plain(within(info).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent);
    expect(field('Structure')).toBe('Ministère de la Santé (MS)');
    expect(field('Date début')).toBe('15 janvier 2026');
    expect(field('Montant prévu')).toBe('150 000,00 €');
    expect(within(info).queryByText('Montant réalisé')).not.toBeInTheDocument();

    const objectif = screen.getByRole('article', { name: 'Simplifier les démarches' });
    const bar = within(objectif).getByRole('progressbar');
    expect(plain(bar.getAttribute('aria-valuetext'))).toBe('66,7 %');
    expect(plain(within(objectif).getByText(/66,6/).textContent)).toBe('66,66666666666666 %');
    const rows = within(within(objectif).getByRole('table')).getAllByRole('row');
    expect(plain(rows[1].textContent)).toContain('40,5au 15 mars 2026');
    expect(plain(rows[1].textContent)).toContain('35 %');
    expect(within(rows[1]).getByText(SUIVI_MESSAGES.validated)).toBeInTheDocument();
    expect(within(rows[2]).getByText(PUBLIC_MESSAGES.noLatest)).toBeInTheDocument();
    // The same progress chart as the back office, for the results that have public measures only.
    const chart = within(objectif).getByRole('img', { name: 'Évolution de la valeur réalisée : Démarches en ligne' });
    expect(chart).toHaveAccessibleDescription('Valeur cible 100, valeur de référence 20. Valeurs réalisées : 15 mars 2026 : 40,5.');
    expect(within(objectif).getAllByRole('figure')).toHaveLength(1);

    const empty = screen.getByRole('article', { name: 'Réduire les délais' });
    expect(within(empty).queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('says the reform is not published when the server does not know it, with a way back to the list', async () => {
    fakeApi({ 'GET reformes/public/99': { status: 404, body: { message: "L'élément demandé est introuvable." } } });
    renderApp('/accueil/reformes/99');
    expect(await screen.findByText(PUBLIC_MESSAGES.notFound)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: PUBLIC_MESSAGES.backToList })).toHaveAttribute('href', '/accueil');
  });

  it('goes back to the list with the filters it came from', async () => {
    fakeApi({
      'GET reformes/public/filters': { body: { message: 'ok', data: { structures: [], natures: [], covers: [] } } },
      'GET reformes/public/suivi-result': {
        body: {
          message: 'ok',
          data: { data: [{ ...detail, objectifs: undefined }], current_page: 1, per_page: 10, total: 1, last_page: 1 },
        },
      },
      'GET reformes/public/5': { body: { message: 'ok', data: detail } },
    });
    const user = userEvent.setup({ delay: null });
    const { router } = renderApp('/accueil?typeref=TRANSVERSALE');
    await user.click(await screen.findByRole('link', { name: 'Guichet unique' }));
    expect(await screen.findByRole('heading', { name: 'Guichet unique', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: PUBLIC_MESSAGES.backToList }));
    expect(router.state.location.pathname).toBe('/accueil');
    expect(router.state.location.search).toBe('?typeref=TRANSVERSALE');
  });
});
