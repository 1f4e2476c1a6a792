import { PUBLIC_MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test/render-app.tsx';
import type { PublicReforme } from './public-api.ts';

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

/** A public server: `list` answers the list request from its query string (no sign-in). */
function publicServer(list: (params: URLSearchParams) => { rows: PublicReforme[]; total?: number; page?: number }) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    const path = url.pathname.replace(/^\/api\/v1\//, '');
    const json = (body: unknown, status = 200) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    if (path === 'reformes/public/filters') return json({ message: 'ok', data: FILTERS });
    if (path === 'reformes/public/suivi-result') {
      const { rows, total = rows.length, page = Number(url.searchParams.get('page') ?? 1) } = list(url.searchParams);
      return json({
        message: 'ok',
        data: { data: rows, current_page: page, per_page: 10, total, last_page: Math.max(1, Math.ceil(total / 10)) },
      });
    }
    return json({ message: 'introuvable' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const listCalls = () =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname.endsWith('reformes/public/suivi-result'))
      .map((url) => Object.fromEntries(url.searchParams));
  return { fetchMock, listCalls };
}

async function choose(user: ReturnType<typeof userEvent.setup>, name: string, option: string) {
  await user.click(screen.getByRole('combobox', { name }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('public list of published reforms', { timeout: 60_000 }, () => {
  it('lists the published reforms in a <main>, with the columns of spec §2.5, the count and a way to sign in', async () => {
    publicServer(() => ({
      rows: [aReforme(5, { libref: 'Guichet unique', typeref: 'TRANSVERSALE', etat_mor: 'planifiee' }), aReforme(6)],
    }));
    renderApp('/accueil');
    const main = await screen.findByRole('main');
    expect(within(main).getByRole('heading', { name: 'Réformes publiées', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Se connecter' })).toHaveAttribute('href', '/login');

    const table = await screen.findByRole('table', { name: 'Réformes publiées' });
    await within(table).findByText('Guichet unique');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['#', 'Libellé', 'Type', 'Période', 'Date début', 'Date fin', 'État']);
    const cells = within(within(table).getAllByRole('row')[1])
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells).toEqual([
      '1',
      'Guichet unique',
      'Transversale',
      'Du 01/03/2024 au 28/03/2026',
      '1 mars 2024',
      '28 mars 2026',
      'Planifiée',
    ]);
    expect(within(table).getByRole('link', { name: 'Guichet unique' })).toHaveAttribute('href', '/accueil/reformes/5');
    expect(screen.getByText('2 élément(s)')).toBeInTheDocument();
    // A single page: no pagination at all.
    expect(screen.queryByRole('button', { name: 'Suivant' })).not.toBeInTheDocument();
  });

  it('filters on the server with "Toutes"/"Tout" options, and the open-data links carry the filters', async () => {
    const { listCalls } = publicServer(() => ({ rows: [aReforme(5)] }));
    const user = userEvent.setup({ delay: null });
    const { router } = renderApp('/accueil');
    await screen.findByText('Réforme 5');

    await user.click(screen.getByRole('combobox', { name: 'Structure' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual([
      'Toutes',
      'Ministère de la Santé (MS)',
      'Direction générale du Budget (DGB)',
    ]);
    await user.click(screen.getByRole('option', { name: 'Direction générale du Budget (DGB)' }));
    await choose(user, 'Type de réforme', 'Sectorielle');
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ per_page: '10', page: '1', structure_id: '4', typeref: 'SECTORIELLE' }));
    expect(router.state.location.search).toBe('?structure_id=4&typeref=SECTORIELLE');

    await user.click(screen.getByRole('combobox', { name: 'Type de réforme' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['Tout', 'Sectorielle', 'Transversale']);
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('combobox', { name: 'Nature' }));
    expect((await screen.findAllByRole('option')).map((option) => option.textContent)).toEqual(['Toutes', 'Administrative']);
    await user.keyboard('{Escape}');

    expect(screen.getByRole('link', { name: PUBLIC_MESSAGES.downloadCsv })).toHaveAttribute(
      'href',
      '/api/v1/reformes/public/export.csv?structure_id=4&typeref=SECTORIELLE',
    );
    expect(screen.getByRole('link', { name: PUBLIC_MESSAGES.downloadJson })).toHaveAttribute(
      'href',
      '/api/v1/reformes/public/export.json?structure_id=4&typeref=SECTORIELLE',
    );

    await choose(user, 'Structure', 'Toutes');
    await waitFor(() => expect(listCalls().at(-1)).toEqual({ per_page: '10', page: '1', typeref: 'SECTORIELLE' }));
  });

  it('searches once the typing pauses, then says "Aucun résultat trouvé" and resets to the whole list', async () => {
    const { listCalls } = publicServer((params) => (params.get('search') ? { rows: [] } : { rows: [aReforme(5), aReforme(6)] }));
    const user = userEvent.setup({ delay: null });
    renderApp('/accueil');
    await screen.findByText('Réforme 5');
    const before = listCalls().length;

    await user.type(screen.getByRole('searchbox', { name: 'Rechercher' }), 'introuvable');
    expect(await screen.findByText(PUBLIC_MESSAGES.noMatch)).toBeInTheDocument();
    const searches = listCalls().slice(before);
    expect(searches.map((call) => call.search)).toEqual(['introuvable']);
    expect(screen.getByText('0 élément(s)')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: PUBLIC_MESSAGES.reset }));
    expect(await screen.findByText('Réforme 5')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Rechercher' })).toHaveValue('');
    expect(listCalls().at(-1)).toEqual({ per_page: '10', page: '1' });
    expect(screen.getByText('2 élément(s)')).toBeInTheDocument();
  });

  it('pages on the server with at most 9 links, "Précédent" and "Suivant", and numbers the rows across pages', async () => {
    const { listCalls } = publicServer((params) => {
      const page = Number(params.get('page'));
      return { rows: Array.from({ length: 10 }, (_, index) => aReforme(page * 100 + index)), total: 150, page };
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/accueil');
    await screen.findByText('Réforme 100');
    const nav = screen.getByRole('navigation', { name: 'Pages des réformes publiées' });
    expect(within(nav).getAllByRole('button', { name: /^Page / })).toHaveLength(9);
    expect(within(nav).getByRole('button', { name: 'Précédent' })).toBeDisabled();

    await user.click(within(nav).getByRole('button', { name: 'Suivant' }));
    expect(await screen.findByText('Réforme 200')).toBeInTheDocument();
    expect(listCalls().at(-1)).toMatchObject({ page: '2' });
    const firstRow = within(screen.getByRole('table')).getAllByRole('row')[1];
    expect(within(firstRow).getAllByRole('cell')[0]).toHaveTextContent('11');
    expect(screen.getByRole('button', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  });
});
