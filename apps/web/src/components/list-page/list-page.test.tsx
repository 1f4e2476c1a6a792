import { MESSAGES, pageWindow, SEARCH_DEBOUNCE_MS, SECTORS_ROUTES, sectorSchema } from '@reformes/domain';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ComponentProps } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { storeSignIn } from '../../session/session.ts';
import { pagedAnswer } from '../../test/fake-api.ts';
import { aUser, renderWithProviders } from '../../test/render-app.tsx';
import { StatusBadge } from '../status-badge.tsx';
import type { ListConfig } from './list-config.ts';
import { ListPage } from './list-page.tsx';

interface Sector {
  id: number;
  libsecteur: string;
  is_active: boolean;
}

const config: ListConfig<Sector> = {
  routes: SECTORS_ROUTES,
  feature: 'sectors',
  title: 'Liste des secteurs',
  errorTitle: 'Secteur',
  columns: [
    { label: 'Libellé', render: (row) => row.libsecteur },
    { label: 'Statut', render: (row) => <StatusBadge isActive={row.is_active} /> },
  ],
  searchValues: (row) => [row.libsecteur],
  rowLabel: (row) => row.libsecteur,
  form: {
    schema: sectorSchema,
    fields: [{ name: 'libsecteur', label: 'Libellé' }],
    createTitle: 'Enregistrer un secteur',
    editTitle: 'Modifier un secteur',
  },
  details: { fields: [{ label: 'Libellé', value: (row) => row.libsecteur }] },
};

const ALL_RIGHTS = ['list', 'show', 'add', 'edit', 'delete', 'status'].map((action) => `sectors.${action}`);

/** Sector n: "Secteur n", active when n is odd. */
const sector = (id: number, label = `Secteur ${id}`): Sector => ({ id, libsecteur: label, is_active: id % 2 === 1 });

interface Call {
  method: string;
  path: string;
  page: string | null;
  perPage: string | null;
  body: unknown;
}

/** The paged answer of `POST sectors-search?per_page=10&page=N`: `found` holds every match, the server pages them. */
const searchAnswer = (found: Sector[]) => (call: Call) => ({
  body: pagedAnswer(found, Number(call.page ?? 1), Number(call.perPage)),
});

/**
 * A fake API of `total` sectors, 10 a page; `overrides` answer other "METHOD path" calls.
 * Returns the calls it received.
 */
function fakeApi(total: number, overrides: Record<string, (call: Call) => { status?: number; body: unknown }> = {}) {
  const calls: Call[] = [];
  const rows = Array.from({ length: total }, (_, index) => sector(index + 1));
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const call: Call = {
        method: init.method ?? 'GET',
        path: url.pathname.replace(/^\/api\/v1\//, ''),
        page: url.searchParams.get('page'),
        perPage: url.searchParams.get('per_page'),
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      const override = overrides[`${call.method} ${call.path}`];
      let answer: { status?: number; body: unknown };
      if (override) answer = override(call);
      else if (call.method === 'GET' && call.path === 'sectors') {
        const page = Number(call.page ?? 1);
        answer = {
          body: {
            message: 'ok',
            isPaginate: true,
            data: {
              data: rows.slice((page - 1) * 10, page * 10),
              current_page: page,
              per_page: 10,
              total,
              last_page: Math.max(1, Math.ceil(total / 10)),
            },
          },
        };
      } else answer = { status: 404, body: { message: 'introuvable' } };
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

function renderList(features: string[] = ALL_RIGHTS, path = '/') {
  storeSignIn({ access_token: 'a', refresh_token: 'r', expire_in: 900, features, user: aUser() });
  const user = userEvent.setup();
  renderWithProviders(<ListPage config={config} />, path);
  return user;
}

const searches = (calls: Call[]) => calls.filter((call) => call.path === 'sectors-search');
const pageLinks = () =>
  within(screen.getByRole('navigation', { name: 'Pagination' }))
    .getAllByRole('button', { name: /^Page / })
    .map((button) => button.textContent);

// Several tests type, page and wait for the search debounce: give them room on a loaded machine.
describe('ListPage', { timeout: 20_000 }, () => {
  it('shows the title, the count, one radio per row and the rows of page 1', async () => {
    fakeApi(12);
    renderList();
    expect(screen.getByRole('heading', { name: 'Liste des secteurs' })).toBeInTheDocument();
    expect(await screen.findByRole('radio', { name: 'Secteur 1' })).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(10);
    expect(screen.getByText('12 élément(s)')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Libellé' })).toBeInTheDocument();
  });

  it.each(['Consulter', 'Éditer', 'Supprimer'])(
    'warns "Aucun élément selectionné" when %s is pressed without a selection',
    async (label) => {
      fakeApi(3);
      const user = renderList();
      await screen.findByRole('radio', { name: 'Secteur 1' });
      await user.click(screen.getByRole('button', { name: label }));
      expect(await screen.findByText(MESSAGES.noSelection)).toBeInTheDocument();
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    },
  );

  it('offers Désactiver for an active row, Activer for an inactive one, and Fermer clears the selection', async () => {
    fakeApi(3);
    const user = renderList();
    expect(screen.queryByRole('button', { name: 'Activer' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Désactiver' })).not.toBeInTheDocument();

    await user.click(await screen.findByRole('radio', { name: 'Secteur 1' }));
    expect(screen.getByRole('button', { name: 'Désactiver' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Activer' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Secteur 2' }));
    expect(screen.getByRole('button', { name: 'Activer' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Désactiver' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Fermer' }));
    expect(screen.getByRole('radio', { name: 'Secteur 2' })).not.toBeChecked();
    expect(screen.queryByRole('button', { name: 'Activer' })).not.toBeInTheDocument();
  });

  it('shows only the buttons the user has the rights for', async () => {
    fakeApi(3);
    const user = renderList(['sectors.list', 'sectors.show']);
    await user.click(await screen.findByRole('radio', { name: 'Secteur 1' }));
    const bar = screen.getByRole('toolbar', { name: 'Actions' });
    expect(
      within(bar)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Consulter', 'Fermer']);
  });

  it('filters the loaded page locally without asking the server', async () => {
    const calls = fakeApi(12);
    const user = renderList();
    await screen.findByRole('radio', { name: 'Secteur 1' });
    await user.type(screen.getByLabelText('Rechercher'), 'secteur 1');
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('aria-label'))).toEqual(['Secteur 1', 'Secteur 10']);
    expect(screen.getByText('2 élément(s)')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(searches(calls)).toEqual([]);
  });

  it('does not search the server for one or two characters, even without a local match', async () => {
    const calls = fakeApi(3, { 'POST sectors-search': searchAnswer([]) });
    const user = renderList();
    await screen.findByRole('radio', { name: 'Secteur 1' });
    await user.type(screen.getByLabelText('Rechercher'), ' zq ');
    expect(await screen.findByText('Aucun résultat trouvé')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(searches(calls)).toEqual([]);
  });

  it('searches the server above two characters when nothing matches locally; its results replace the list', async () => {
    const calls = fakeApi(12, { 'POST sectors-search': searchAnswer([sector(40, 'Énergie'), sector(41, 'Énergie solaire')]) });
    const user = renderList();
    await screen.findByRole('radio', { name: 'Secteur 1' });
    await user.type(screen.getByLabelText('Rechercher'), 'ener');
    expect(await screen.findByRole('radio', { name: 'Énergie solaire' })).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(2);
    expect(screen.getByText('2 élément(s)')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(searches(calls).map(({ body, page, perPage }) => ({ body, page, perPage }))).toEqual([
      { body: { search: 'ener' }, page: '1', perPage: '10' },
    ]);
  });

  it('pages through 250 remote matches with their true total, then reset returns to the list', async () => {
    const found = Array.from({ length: 250 }, (_, index) => sector(1000 + index, `Énergie ${index + 1}`));
    const calls = fakeApi(12, { 'POST sectors-search': searchAnswer(found) });
    const user = renderList();
    await screen.findByRole('radio', { name: 'Secteur 1' });
    await user.type(screen.getByLabelText('Rechercher'), 'énergie');
    expect(await screen.findByRole('radio', { name: 'Énergie 1' })).toBeInTheDocument();
    expect(screen.getByText('250 élément(s)')).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(10);
    expect(pageLinks()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);

    await user.click(screen.getByRole('button', { name: 'Page 9' }));
    expect(await screen.findByRole('radio', { name: 'Énergie 81' })).toBeInTheDocument();
    for (const page of [13, 17, 21, 25]) await user.click(await screen.findByRole('button', { name: `Page ${page}` }));
    expect(await screen.findByRole('radio', { name: 'Énergie 250' })).toBeInTheDocument();
    expect(pageLinks()).toEqual(['17', '18', '19', '20', '21', '22', '23', '24', '25']);
    expect(screen.getByRole('button', { name: 'Suivant' })).toBeDisabled();
    expect(screen.getByText('250 élément(s)')).toBeInTheDocument();
    // Each page shown is asked of the server, 10 at a time.
    expect(searches(calls).at(-1)).toMatchObject({ page: '25', perPage: '10', body: { search: 'énergie' } });

    await user.click(screen.getByRole('button', { name: 'Réinitialiser la recherche' }));
    expect(await screen.findByRole('radio', { name: 'Secteur 1' })).toBeInTheDocument();
    expect(screen.getByText('12 élément(s)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(pageLinks()).toEqual(['1', '2']);
  });

  it('starts a new remote search at page 1', async () => {
    const calls = fakeApi(12, {
      'POST sectors-search': (call) =>
        searchAnswer(
          Array.from({ length: 30 }, (_, index) => sector(100 + index, `${(call.body as { search: string }).search} ${index + 1}`)),
        )(call),
    });
    const user = renderList();
    await screen.findByRole('radio', { name: 'Secteur 1' });
    await user.type(screen.getByLabelText('Rechercher'), 'peche');
    await user.click(await screen.findByRole('button', { name: 'Page 3' }));
    expect(await screen.findByRole('radio', { name: 'peche 21' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Rechercher'), 's');
    expect(await screen.findByRole('radio', { name: 'peches 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(searches(calls).at(-1)).toMatchObject({ page: '1', body: { search: 'peches' } });
  });

  it('does not search the server while the loaded page has a match', async () => {
    const calls = fakeApi(12, { 'POST sectors-search': searchAnswer([]) });
    const user = renderList();
    await screen.findByRole('radio', { name: 'Secteur 1' });
    await user.type(screen.getByLabelText('Rechercher'), 'teur 3');
    expect(screen.getAllByRole('radio')).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(searches(calls)).toEqual([]);
  });

  it('reset empties the search box and restores the list from page 1', async () => {
    const calls = fakeApi(25, { 'POST sectors-search': searchAnswer([sector(99, 'Pêche')]) });
    const user = renderList();
    await screen.findByRole('radio', { name: 'Secteur 1' });
    await user.click(screen.getByRole('button', { name: 'Suivant' }));
    expect(await screen.findByRole('radio', { name: 'Secteur 11' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Rechercher'), 'peche');
    expect(await screen.findByRole('radio', { name: 'Pêche' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Réinitialiser la recherche' }));
    expect(screen.getByLabelText('Rechercher')).toHaveValue('');
    expect(await screen.findByRole('radio', { name: 'Secteur 1' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('25 élément(s)')).toBeInTheDocument();
    expect(calls.filter((call) => call.path === 'sectors').at(-1)?.page).toBe('1');
  });

  it('links at most 9 pages, around the current one, between Précédent and Suivant', async () => {
    fakeApi(200);
    const user = renderList();
    await screen.findByRole('radio', { name: 'Secteur 1' });
    expect(pageLinks()).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(screen.getByRole('button', { name: 'Précédent' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Page 9' }));
    expect(await screen.findByRole('radio', { name: 'Secteur 81' })).toBeInTheDocument();
    expect(pageLinks()).toEqual(['5', '6', '7', '8', '9', '10', '11', '12', '13']);

    await user.click(screen.getByRole('button', { name: 'Page 13' }));
    await user.click(await screen.findByRole('button', { name: 'Page 17' }));
    await user.click(await screen.findByRole('button', { name: 'Page 20' }));
    expect(await screen.findByRole('radio', { name: 'Secteur 200' })).toBeInTheDocument();
    expect(pageLinks()).toEqual(['12', '13', '14', '15', '16', '17', '18', '19', '20']);
    expect(screen.getByRole('button', { name: 'Suivant' })).toBeDisabled();
  });

  it('opens the page and search a shared link names, and a page past the last one shows the last page', async () => {
    const calls = fakeApi(25);
    renderList(ALL_RIGHTS, '/?page=2');
    expect(await screen.findByRole('radio', { name: 'Secteur 11' })).toBeInTheDocument();
    expect(calls.find((call) => call.path === 'sectors')?.page).toBe('2');
    cleanup();

    fakeApi(25);
    renderList(ALL_RIGHTS, '/?page=9');
    expect(await screen.findByRole('radio', { name: 'Secteur 21' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
    cleanup();

    fakeApi(25);
    renderList(ALL_RIGHTS, '/?search=Secteur%202&page=abc');
    expect(await screen.findByRole('radio', { name: 'Secteur 2' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Rechercher/ })).toHaveValue('Secteur 2');
  });

  it('computes the window of page links', () => {
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pageWindow(12, 20)).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(pageWindow(20, 20)).toEqual([12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });

  it('hides the pagination when there is one page', async () => {
    fakeApi(10);
    renderList();
    await screen.findByRole('radio', { name: 'Secteur 10' });
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Précédent' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suivant' })).not.toBeInTheDocument();
  });

  it('deactivates with "Opération en cours" while running, then clears the selection after the reload', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls = fakeApi(3, {
      'GET sectors/1/state/0': () => ({
        body: { message: 'Désactivation effectuée avec succès', data: { ...sector(1), is_active: false } },
      }),
    });
    const fetchMock = vi.mocked(fetch);
    const answer = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('/state/')) await gate;
      return (answer as typeof fetch)(input, init);
    });
    const user = renderList();
    await user.click(await screen.findByRole('radio', { name: 'Secteur 1' }));
    await user.click(screen.getByRole('button', { name: 'Désactiver' }));
    expect(await screen.findByText(MESSAGES.operationRunning)).toBeInTheDocument();
    release();
    expect(await screen.findByText('Désactivation effectuée avec succès')).toBeInTheDocument();
    await waitFor(() => expect(calls.filter((call) => call.path === 'sectors')).toHaveLength(2));
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Secteur 1' })).not.toBeChecked());
    expect(screen.queryByRole('button', { name: 'Fermer' })).not.toBeInTheDocument();
  });

  it('shows a failed state change titled "Gestion des utilisateurs"', async () => {
    fakeApi(3, { 'GET sectors/1/state/0': () => ({ status: 403, body: { message: 'Accès refusé' } }) });
    const user = renderList();
    await user.click(await screen.findByRole('radio', { name: 'Secteur 1' }));
    await user.click(screen.getByRole('button', { name: 'Désactiver' }));
    expect(await screen.findByText('Accès refusé')).toBeInTheDocument();
    expect(screen.getByText('Gestion des utilisateurs')).toBeInTheDocument();
  });

  it('deletes after the confirmation "Suppression" and shows the server message', async () => {
    const calls = fakeApi(3, { 'DELETE sectors/2': () => ({ body: { message: 'Suppression effectuée avec succès' } }) });
    const user = renderList();
    await user.click(await screen.findByRole('radio', { name: 'Secteur 2' }));
    await user.click(screen.getByRole('button', { name: 'Supprimer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suppression' });
    expect(within(dialog).getByText('Voulez vous vraiment retirer cet élément?')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText('Suppression effectuée avec succès')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE' && call.path === 'sectors/2')).toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a refused delete with the server message', async () => {
    fakeApi(3, { 'DELETE sectors/2': () => ({ status: 409, body: { message: 'Ce secteur est utilisé par des structures.' } }) });
    const user = renderList();
    await user.click(await screen.findByRole('radio', { name: 'Secteur 2' }));
    await user.click(screen.getByRole('button', { name: 'Supprimer' }));
    await user.click(await screen.findByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText('Ce secteur est utilisé par des structures.')).toBeInTheDocument();
  });

  it('creates a row from a form whose submit waits for valid input', async () => {
    const calls = fakeApi(3, {
      'POST sectors': () => ({ status: 201, body: { message: 'Enregistrement effectué avec succès', data: sector(4) } }),
    });
    const user = renderList();
    await screen.findByRole('radio', { name: 'Secteur 1' });
    await user.click(screen.getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enregistrer un secteur' });
    const submit = within(dialog).getByRole('button', { name: 'Enregistrer' });
    await waitFor(() => expect(submit).toBeDisabled());
    await user.type(within(dialog).getByLabelText(/Libellé/), '  ');
    await user.tab();
    expect(await within(dialog).findByText('Le libellé du secteur est requis')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Libellé/), 'Pêche');
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByText('Enregistrement effectué avec succès')).toBeInTheDocument();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ libsecteur: 'Pêche' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('edits the selected row and shows a refusal titled by the entity', async () => {
    fakeApi(3, { 'PUT sectors/3': () => ({ status: 409, body: { message: 'Le libellé « Secteur 1 » existe déjà.' } }) });
    const user = renderList();
    await user.click(await screen.findByRole('radio', { name: 'Secteur 3' }));
    await user.click(screen.getByRole('button', { name: 'Éditer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier un secteur' });
    const input = within(dialog).getByLabelText(/Libellé/);
    expect(input).toHaveValue('Secteur 3');
    await user.clear(input);
    await user.type(input, 'Secteur 1');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Le libellé « Secteur 1 » existe déjà.')).toBeInTheDocument();
    expect(screen.getByText('Secteur')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Modifier un secteur' })).toBeInTheDocument();
  });

  it('shows the details of the selected row', async () => {
    fakeApi(3);
    const user = renderList();
    await user.click(await screen.findByRole('radio', { name: 'Secteur 2' }));
    await user.click(screen.getByRole('button', { name: 'Consulter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Détails des informations' });
    expect(within(dialog).getByRole('cell', { name: 'Secteur 2' })).toBeInTheDocument();
  });
});

describe('ListPage options', { timeout: 20_000 }, () => {
  function renderWith(options: Partial<ListConfig<Sector>>, props: Omit<ComponentProps<typeof ListPage<Sector>>, 'config'> = {}) {
    storeSignIn({ access_token: 'a', refresh_token: 'r', expire_in: 900, features: ALL_RIGHTS, user: aUser() });
    const user = userEvent.setup();
    renderWithProviders(<ListPage config={{ ...config, ...options }} {...props} />);
    return user;
  }

  it('pages and searches a whole list here when the server sends it at once', async () => {
    const rows = Array.from({ length: 23 }, (_, index) => sector(index + 1));
    const calls = fakeApi(0, { 'GET sectors': () => ({ body: { message: 'ok', isPaginate: false, data: rows } }) });
    const user = renderWith({ wholeList: true });
    expect(await screen.findByRole('radio', { name: 'Secteur 1' })).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(10);
    expect(screen.getByText('23 élément(s)')).toBeInTheDocument();
    expect(pageLinks()).toEqual(['1', '2', '3']);

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(screen.getAllByRole('radio').map((radio) => radio.getAttribute('aria-label'))).toEqual([
      'Secteur 21',
      'Secteur 22',
      'Secteur 23',
    ]);

    // "Secteur 2" also matches 20 to 23: searched over the whole list, shown from page 1.
    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), 'Secteur 2');
    expect(await screen.findByText('5 élément(s)')).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(5);
    await new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 100));
    expect(searches(calls)).toHaveLength(0);
    expect(calls.filter((call) => call.path === 'sectors').every((call) => call.page === null)).toBe(true);
  });

  it('hides a standard button, runs an extra action without a selection and shows a side panel of the selection', async () => {
    fakeApi(3);
    const copied = vi.fn();
    const user = renderWith(
      { hiddenActions: ['show'] },
      {
        extraActions: [{ label: 'Copier', action: 'add', needsSelection: false, onClick: copied }],
        aside: (row) => <p>{row ? `Choisi : ${row.libsecteur}` : 'Rien de choisi'}</p>,
      },
    );
    await screen.findByRole('radio', { name: 'Secteur 1' });
    expect(screen.queryByRole('button', { name: 'Consulter' })).not.toBeInTheDocument();
    expect(screen.getByText('Rien de choisi')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Copier' }));
    expect(copied).toHaveBeenLastCalledWith(undefined);
    expect(screen.queryByText(MESSAGES.noSelection)).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Secteur 2' }));
    expect(screen.getByText('Choisi : Secteur 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copier' }));
    expect(copied).toHaveBeenLastCalledWith(expect.objectContaining({ id: 2 }));
  });
});
