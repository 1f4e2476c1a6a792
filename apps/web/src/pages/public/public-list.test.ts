import { PUBLIC_MESSAGES, PUBLIC_ROUTES, type PublicReforme, pathOf } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { render } from '../html.ts';
import { startPublicList } from './public-list.ts';
import { publicListPageHtml } from './public-markup.ts';
import { PUBLIC_PATHS } from './public-paths.ts';

function aReforme(id: number, overrides: Partial<PublicReforme> = {}): PublicReforme {
  return {
    id,
    libref: `Réforme ${id}`,
    typeref: 'SECTORIELLE',
    periodexe: 'Du 01/03/2024 au 28/03/2026',
    date_debut: '2024-03-01',
    date_fin: '2026-03-28',
    etat_mor: 'en_cours',
    objectif_glob: 'Améliorer le service',
    popul_cible: 'Usagers',
    struct_impl: 'Ministères',
    cadreinst_mor: null,
    montant_prevu: null,
    montant_trealise: null,
    nature: { id: 1, libnature: 'Administrative' },
    couverture: { id: 2, lib_couvert: 'Nationale' },
    structure: { id: 3, designation: 'Ministère de la Santé', sigl: 'MS' },
    ...overrides,
  };
}

const FILTERS = {
  structures: [
    { id: 3, designation: 'Ministère de la Santé', sigl: 'MS' },
    { id: 4, designation: 'Direction générale du Budget', sigl: 'DGB' },
  ],
  natures: [{ id: 1, libnature: 'Administrative' }],
  covers: [{ id: 2, lib_couvert: 'Nationale' }],
};

/** A public server: `list` answers the list request from its query string. */
function publicServer(list: (params: URLSearchParams) => { rows: PublicReforme[]; total?: number }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api\/v1\//, '');
    const json = (body: unknown) => new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
    if (path === 'reformes/public/filters') return json({ message: 'ok', data: FILTERS });
    const { rows, total = rows.length } = list(url.searchParams);
    const page = Number(url.searchParams.get('page'));
    return json({
      message: 'ok',
      data: { data: rows, current_page: page, per_page: 10, total, last_page: Math.max(1, Math.ceil(total / 10)) },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  const listCalls = () =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname.endsWith('reformes/public/suivi-result'))
      .map((url) => Object.fromEntries(url.searchParams));
  return { listCalls };
}

function openList(address = '/accueil') {
  window.history.replaceState(null, '', address);
  render(document.body, publicListPageHtml());
  startPublicList();
  return userEvent.setup();
}

const table = () => screen.getByRole('table', { name: PUBLIC_MESSAGES.title });

describe('public list without React (issue 34)', { timeout: 30_000 }, () => {
  it('asks the paths of the domain route table', () => {
    expect(`/${PUBLIC_PATHS.page}`).toBe(PUBLIC_ROUTES.page.path);
    expect(`/${PUBLIC_PATHS.filters}`).toBe(PUBLIC_ROUTES.filters.path);
    expect(`/${PUBLIC_PATHS.detail(4)}`).toBe(pathOf(PUBLIC_ROUTES.detail.path, { id: 4 }));
    expect(`/${PUBLIC_PATHS.export('csv')}`).toBe(PUBLIC_ROUTES.exportCsv.path);
    expect(`/${PUBLIC_PATHS.export('json')}`).toBe(PUBLIC_ROUTES.exportJson.path);
  });

  it('lists the published reforms in a <main>, with the columns of spec §2.5, the count and a way to sign in', async () => {
    const { listCalls } = publicServer(() => ({
      rows: [aReforme(5, { libref: 'Guichet unique', typeref: 'TRANSVERSALE', etat_mor: 'planifiee' }), aReforme(6)],
    }));
    openList();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('heading', { name: PUBLIC_MESSAGES.title, level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/login');
    expect(await screen.findByText('2 élément(s)')).toBeInTheDocument();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['#', 'Libellé', 'Type', 'Période', 'Date début', 'Date fin', 'État']);
    const first = within(table()).getAllByRole('row')[1];
    expect(
      within(first)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['1', 'Guichet unique', 'Transversale', 'Du 01/03/2024 au 28/03/2026', '1 mars 2024', '28 mars 2026', 'Planifiée']);
    expect(within(first).getByRole('link', { name: 'Guichet unique' })).toHaveAttribute('href', '/accueil/reformes/5');
    // The first page is the one the page preloads (build/pages.ts): the same address, asked once.
    expect(listCalls()).toEqual([{ per_page: '10', page: '1' }]);
    expect(screen.queryByRole('navigation', { name: 'Pages des réformes publiées' })).not.toBeInTheDocument();
  });

  it('filters by the selects, keeps them in the address, and points the open-data links at them', async () => {
    const { listCalls } = publicServer((params) => ({
      rows: params.get('structure_id') === '3' ? [aReforme(7)] : [aReforme(7), aReforme(8)],
    }));
    const user = openList();
    expect(await screen.findByText('2 élément(s)')).toBeInTheDocument();
    await screen.findByRole('option', { name: 'Ministère de la Santé (MS)' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Structure' }), 'Ministère de la Santé (MS)');
    expect(await screen.findByText('1 élément(s)')).toBeInTheDocument();
    expect(window.location.search).toBe('?structure_id=3');
    expect(listCalls().at(-1)).toEqual({ per_page: '10', page: '1', structure_id: '3' });
    expect(screen.getByRole('link', { name: PUBLIC_MESSAGES.downloadCsv })).toHaveAttribute(
      'href',
      '/api/v1/reformes/public/export.csv?structure_id=3',
    );
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type de réforme' }), 'Transversale');
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ per_page: '10', page: '1', structure_id: '3', typeref: 'TRANSVERSALE' }));
    expect(screen.getByRole('combobox', { name: 'Nature' })).toHaveDisplayValue('Toutes');
    expect(screen.getByRole('combobox', { name: 'Type de réforme' })).toHaveDisplayValue('Transversale');
  });

  it('reads the filters of the address, searches on the server once the typing pauses, and resets after "Aucun résultat trouvé"', async () => {
    const { listCalls } = publicServer((params) => ({ rows: params.get('search') === 'zzz' ? [] : [aReforme(9)] }));
    const user = openList('/accueil?typeref=SECTORIELLE');
    expect(await screen.findByText('1 élément(s)')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Type de réforme' })).toHaveDisplayValue('Sectorielle');
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher' }), 'zzz');
    await waitFor(() => expect(screen.getByText(PUBLIC_MESSAGES.noMatch)).toBeVisible());
    expect(listCalls().at(-1)).toEqual({ per_page: '10', page: '1', typeref: 'SECTORIELLE', search: 'zzz' });
    // One search for the whole word, not one per letter.
    expect(listCalls().filter((call) => call.search)).toHaveLength(1);
    expect(screen.queryByRole('table', { name: PUBLIC_MESSAGES.title })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: PUBLIC_MESSAGES.reset, exact: true } as never));
    expect(await screen.findByText('1 élément(s)')).toBeInTheDocument();
    expect(window.location.search).toBe('');
    expect(screen.getByRole('searchbox', { name: 'Rechercher' })).toHaveValue('');
    expect(screen.getByRole('combobox', { name: 'Type de réforme' })).toHaveDisplayValue('Tout');
  });

  it('pages with "Précédent", at most 9 numbers and "Suivant", the current page marked', async () => {
    const { listCalls } = publicServer((params) => ({
      rows: [aReforme(Number(params.get('page')) * 100)],
      total: 200,
    }));
    const user = openList();
    const pages = await screen.findByRole('navigation', { name: 'Pages des réformes publiées' });
    expect(
      within(pages)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Précédent', ...'123456789'.split(''), 'Suivant']);
    expect(within(pages).getByRole('button', { name: 'Précédent' })).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Page 3' }));
    expect(await within(table()).findByRole('link', { name: 'Réforme 300' })).toBeInTheDocument();
    expect(within(table()).getAllByRole('cell')[0]).toHaveTextContent('21');
    expect(window.location.search).toBe('?page=3');
    expect(screen.getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
    expect(listCalls().at(-1)).toEqual({ per_page: '10', page: '3' });
  });

  it('goes back to the first page as soon as a search is typed, even one too short to be sent', async () => {
    const { listCalls } = publicServer(() => ({ rows: [aReforme(1)], total: 40 }));
    const user = openList('/accueil?page=3');
    await waitFor(() => expect(listCalls()).toEqual([{ per_page: '10', page: '3' }]));
    await user.type(screen.getByRole('searchbox', { name: 'Rechercher' }), 'a');
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ per_page: '10', page: '1' }));
    expect(window.location.search).toBe('?search=a');
  });

  it('shows the server error titled as the page', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ message: 'Service indisponible' }), { status: 503 }));
    openList();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(PUBLIC_MESSAGES.title);
    expect(alert).toHaveTextContent('Service indisponible');
  });
});
