import type { RoleName } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { aReforme, onePage } from '../../test/reforme-fixtures.ts';
import { renderApp, signInWithRole } from '../../test/render-app.tsx';

const reforme = aReforme({
  id: 4,
  libref: 'Cadastre numérique',
  objectif_glob: 'Numériser',
  popul_cible: 'Propriétaires',
  struct_impl: 'DGI',
  date_debut: '2026-03-01',
  periodexe: 'Du 01/03/2026 au 31/12/2026',
  date_enreg: '2026-02-10T09:30:00.000Z',
  etat_mor: null,
  stage: 3,
  structure: { id: 3, designation: 'Direction des impôts', sigl: 'DGI' },
});

const lookups = {
  'GET reformes': onePage([reforme]),
  'GET natures': { body: { message: 'ok', data: [] } },
  'GET covers': { body: { message: 'ok', data: [] } },
  'GET structures': { body: { message: 'ok', data: [] } },
};

function openList(role: RoleName, extra: Parameters<typeof fakeApi>[0] = {}) {
  signInWithRole(role);
  const fetchMock = fakeApi({ ...lookups, ...extra });
  const user = userEvent.setup({ delay: null });
  renderApp('/admin/list-reformes');
  return { user, fetchMock };
}

const result = (id: number, libresult: string, status: number) => ({
  id,
  objectif_id: 1,
  libresult,
  indicateur: 'Part',
  valeur_cible: '100',
  valeurref: '0',
  status,
});

const sectorPosts = (fetchMock: ReturnType<typeof fakeApi>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => init?.method === 'POST' && /\/sectors$/.test(String(url)))
    .map(([, init]) => JSON.parse(String(init?.body)));

describe('"Liste des réformes": add a sector (spec §2.10)', { timeout: 60_000 }, () => {
  it('lets saisie central add a sector from the list, with the sector form and its toast', async () => {
    const { user, fetchMock } = openList('saisie central', {
      'POST sectors': { status: 201, body: { message: 'Enregistrement effectué avec succès', data: { id: 9, libsecteur: 'Numérique' } } },
    });
    await screen.findByText('Cadastre numérique');
    await user.click(screen.getByRole('button', { name: 'Ajouter un secteur' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enregistrer un secteur' });
    const label = within(dialog).getByRole('textbox', { name: 'Libellé' });
    expect(within(dialog).getByText('Libellé')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Enregistrer' })).toBeDisabled();

    await user.click(label);
    await user.tab();
    expect(await within(dialog).findByText('Le libellé du secteur est requis')).toBeInTheDocument();
    expect(sectorPosts(fetchMock)).toEqual([]);

    await user.type(label, 'Numérique');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    const toast = (await screen.findByText('Enregistrement effectué avec succès')).closest('[role="alert"]') as HTMLElement;
    expect(within(toast).getByText('Secteur')).toBeInTheDocument();
    expect(sectorPosts(fetchMock)).toEqual([{ libsecteur: 'Numérique' }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Enregistrer un secteur' })).not.toBeInTheDocument());
  });

  it('shows a refused sector under the title "Secteur" and keeps the form open', async () => {
    const { user } = openList('saisie central', {
      'POST sectors': {
        status: 422,
        body: { message: 'Les données envoyées sont invalides.', errorsList: { libsecteur: ['Ce secteur existe déjà'] } },
      },
    });
    // The list first, as a person sees it: the page drawn again under an open form would be another test.
    await screen.findByText('Cadastre numérique');
    await user.click(screen.getByRole('button', { name: 'Ajouter un secteur' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enregistrer un secteur' });
    const label = within(dialog).getByRole('textbox', { name: 'Libellé' });
    await user.type(label, 'Santé');
    expect(label).toHaveValue('Santé');
    const save = within(dialog).getByRole('button', { name: 'Enregistrer' });
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    const toast = (await screen.findByText('Ce secteur existe déjà')).closest('[role="alert"]') as HTMLElement;
    expect(within(toast).getByText('Secteur')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Enregistrer un secteur' })).toBeInTheDocument();
  });

  it.each(['saisie', 'validation', 'publication'] as const)('offers no sector to %s, who may not add one', async (role) => {
    openList(role);
    await screen.findByText('Cadastre numérique');
    expect(screen.queryByRole('button', { name: 'Ajouter un secteur' })).not.toBeInTheDocument();
  });
});

describe('"Liste des réformes": the detail modal keeps the usual result wording', { timeout: 60_000 }, () => {
  it('reads a result "Validé" or "En attente d\'atteinte", and the objective share unrounded', async () => {
    const { user } = openList('saisie central', {
      'GET reformes/4': {
        body: {
          message: 'ok',
          data: {
            ...reforme,
            objectifs: [
              {
                id: 1,
                libobjectif: 'Numériser les plans',
                reforme_id: 4,
                is_active: true,
                results: [result(1, 'Plans scannés', 1), result(2, 'Plans en ligne', 0), result(3, 'Plans vérifiés', 1)],
              },
            ],
            history: [],
            affectation: null,
          },
        },
      },
    });
    const line = (await screen.findByText('Cadastre numérique')).closest('tr') as HTMLElement;
    await user.click(within(line).getByRole('button', { name: 'Consulter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Fiche de la réforme' });
    await user.click(await within(dialog).findByRole('tab', { name: 'Objectifs et résultats attendus' }));
    const results = await within(dialog).findByRole('table', { name: 'Résultats attendus : Numériser les plans' });
    const statuses = within(results)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').at(-1)?.textContent);
    expect(statuses).toEqual(['Validé', "En attente d'atteinte", 'Validé']);
    expect(within(dialog).getByText(/^66,66666666666666\s% validés$/)).toBeInTheDocument();
  });
});

describe('"Liste des réformes": the import button follows the right "reformes-import.add" (issue 29)', { timeout: 60_000 }, () => {
  it('offers "Importer" to saisie central, which holds the right by default', async () => {
    openList('saisie central');
    await screen.findByText('Cadastre numérique');
    expect(screen.getByRole('link', { name: /Importer/ })).toHaveAttribute('href', '/admin/import-reformes');
  });

  it('hides it once an admin took the right from the role', async () => {
    signInWithRole('saisie central', ['reformes-import.add']);
    fakeApi(lookups);
    renderApp('/admin/list-reformes');
    await screen.findByText('Cadastre numérique');
    expect(screen.queryByRole('link', { name: /Importer/ })).toBeNull();
  });
});
