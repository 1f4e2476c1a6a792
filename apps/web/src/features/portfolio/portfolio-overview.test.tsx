import { type PortfolioCounts, type PortfolioRow, portfolioCountsShape } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { fakeApi, pagedAnswer, shaped } from '../../test/fake-api.ts';
import { renderApp, signInWithRole } from '../../test/render-app.tsx';

const plain = (text: string | null | undefined) => (text ?? '').replace(/[\u00a0\u202f]/g, ' ');

const row = (overrides: Partial<PortfolioRow>): PortfolioRow => ({
  id: 1,
  libref: 'Guichet unique',
  typeref: 'SECTORIELLE',
  etat_mor: 'en_cours',
  date_debut: '2026-01-01',
  date_fin: '2026-06-30',
  structure: 'DB',
  nature: 'Administrative',
  status: 'en_retard',
  progress: 0.4,
  days_without_suivi: 30,
  last_suivi_date: '2026-10-25',
  results_total: 2,
  results_validated: 0,
  ...overrides,
});

const ROWS = [
  row({}),
  row({ id: 2, libref: 'Cadastre numérique', status: 'sans_suivi', days_without_suivi: 120, last_suivi_date: null, progress: 0 }),
  row({ id: 3, libref: 'Budget programme', status: 'terminee', progress: 1 }),
];
const COUNTS: PortfolioCounts = { en_retard: 3, sans_suivi: 1, a_risque: 0, dans_les_temps: 4, non_demarree: 2, terminee: 1 };

function openOverview(path = '/admin/follow-reformes', rows = ROWS) {
  signInWithRole('publication');
  const fetchMock = fakeApi({
    // 23 reforms in all: the first page holds the three rows.
    'GET portfolio': {
      body: { ...pagedAnswer(rows, 1, 10), data: { ...pagedAnswer(rows, 1, 10).data, total: rows.length === 0 ? 0 : 23, last_page: 3 } },
    },
    'GET portfolio/counts': shaped(portfolioCountsShape, COUNTS),
    'GET portfolio/export.csv': { body: 'Réforme;Structure' },
    'GET portfolio/export.xlsx': { body: 'PK' },
    'GET structures': { body: { message: 'ok', isPaginate: false, data: [{ id: 4, designation: 'Direction du budget', sigl: 'DB' }] } },
    'GET natures': { body: { message: 'ok', isPaginate: false, data: [{ id: 2, libnature: 'Administrative' }] } },
    'GET reformes/users/get-suivi-result': { body: pagedAnswer([], 1, 20) },
  });
  const user = userEvent.setup({ delay: null });
  return { user, fetchMock, ...renderApp(path) };
}

const portfolioCalls = (fetchMock: ReturnType<typeof fakeApi>) =>
  fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost')).filter((url) => url.pathname === '/api/v1/portfolio');

describe('follow-up portfolio overview', { timeout: 60_000 }, () => {
  it('lists the reforms with their status, progress and last follow-up, and counts each status', async () => {
    openOverview();
    const table = await screen.findByRole('table', { name: "23 réformes, les plus en retard d'abord" });
    const [, first, second, third] = within(table).getAllByRole('row');
    expect(within(first).getByText('En retard')).toBeInTheDocument();
    expect(plain(within(first).getByText(/40/).textContent)).toBe('40 %');
    expect(within(first).getByText('25/10/2026')).toBeInTheDocument();
    expect(within(second).getByText('Sans suivi depuis 120 jours')).toBeInTheDocument();
    expect(within(second).getByText('Aucun suivi')).toBeInTheDocument();
    expect(within(third).getByText('Terminée')).toBeInTheDocument();
    expect(within(first).getByRole('progressbar', { name: 'Avancement : Guichet unique' })).toBeInTheDocument();
    const counters = screen.getByRole('group', { name: 'Avancement du portefeuille' });
    expect(await within(counters).findByRole('button', { name: 'En retard : 3' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('filters by a counter and by the selects, keeping the filters in the address', async () => {
    const { user, fetchMock, router } = openOverview();
    await user.click(await screen.findByRole('button', { name: 'Dans les temps : 4' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=dans_les_temps'));
    expect(screen.getByRole('button', { name: 'Dans les temps : 4' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(portfolioCalls(fetchMock).at(-1)?.searchParams.get('status')).toBe('dans_les_temps'));

    await user.click(screen.getByRole('combobox', { name: 'Etat MO' }));
    await user.click(await screen.findByRole('option', { name: 'Suspendue' }));
    await waitFor(() => expect(portfolioCalls(fetchMock).at(-1)?.searchParams.get('etat_mor')).toBe('suspendue'));
    expect(router.state.location.search).toContain('etat_mor=suspendue');
  });

  it('opens on the filters of the address, as the dashboard links to it', async () => {
    const { fetchMock } = openOverview('/admin/follow-reformes?status=en_retard&nature_id=2');
    await waitFor(() => expect(portfolioCalls(fetchMock).length).toBeGreaterThan(0));
    const query = portfolioCalls(fetchMock)[0].searchParams;
    expect(query.get('status')).toBe('en_retard');
    expect(query.get('nature_id')).toBe('2');
    expect(await screen.findByRole('button', { name: 'En retard : 3' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('exports the overview with its filters as CSV and as Excel', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:portfolio');
    URL.revokeObjectURL = vi.fn();
    const { user, fetchMock } = openOverview('/admin/follow-reformes?status=en_retard&nature_id=2');
    await screen.findByRole('table', { name: "23 réformes, les plus en retard d'abord" });
    await user.click(screen.getByRole('button', { name: 'Exporter en CSV' }));
    await user.click(screen.getByRole('button', { name: 'Exporter en Excel' }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalledTimes(2));
    const exports = fetchMock.calls.filter((call) => call.path.startsWith('portfolio/export.'));
    expect(exports.map((call) => [call.path, Object.fromEntries(call.query)])).toEqual([
      ['portfolio/export.csv', { nature_id: '2', status: 'en_retard' }],
      ['portfolio/export.xlsx', { nature_id: '2', status: 'en_retard' }],
    ]);
  });

  it('says so when no reform matches', async () => {
    openOverview('/admin/follow-reformes?status=a_risque', []);
    expect(await screen.findByText('Aucune réforme ne correspond à ces critères')).toBeInTheDocument();
  });

  it('puts the chosen reform in the address from its row', async () => {
    const { user, router } = openOverview();
    await user.click(await screen.findByRole('button', { name: 'Voir le suivi de Cadastre numérique' }));
    await waitFor(() => expect(router.state.location.search).toBe('?reforme=2'));
  });
});
