import type { AuditEntry } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { storeSignIn } from '../../session/session.ts';
import { fakeApi, pagedAnswer, pagedFrom } from '../../test/fake-api.ts';
import { aUser, renderApp } from '../../test/render-app.tsx';

// The first screen of a file loads the lazy layout and page: slower than the default second on a busy machine.
function signIn(features = ['audit.list'], role = 'admin') {
  storeSignIn({
    access_token: 'access-1',
    refresh_token: 'refresh-1',
    expire_in: 900,
    features,
    user: aUser({ roles: [{ id: 1, name: role }] }),
  });
}

const entry = (id: number, overrides: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  created_at: '2026-07-11T09:30:05.000Z',
  actor_id: 3,
  actor_email: 'awa@reformes.test',
  action: 'login',
  target_type: null,
  target_id: null,
  target_label: null,
  result: 'success',
  ip: '203.0.113.7',
  details: {},
  ...overrides,
});

/** The query strings the screen sent to `path`, as objects. */
function queriesTo(fetchMock: ReturnType<typeof fakeApi>, path: string) {
  return fetchMock.mock.calls
    .map(([input]) => String(input))
    .filter((url) => url.split('?')[0] === `/api/v1/${path}`)
    .map((url) => Object.fromEntries(new URLSearchParams(url.split('?')[1] ?? '')));
}

const table = () => screen.findByRole('table', { name: "Journal d'audit" });

// Generous timeouts: the page is lazily loaded and the filter tests type a lot.
describe("Journal d'audit", { timeout: 30_000 }, () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:audit');
    URL.revokeObjectURL = vi.fn();
  });

  it('lists the events newest first: Date, Utilisateur, Action, Cible, Résultat, Adresse IP, in French', async () => {
    signIn();
    const rows = [
      entry(2, {
        action: 'login',
        result: 'failure',
        actor_id: null,
        actor_email: 'inconnu@exemple.test',
        details: { reason: 'unknown_email' },
      }),
      entry(1, {
        action: 'profile.grant',
        target_type: 'role',
        target_id: 4,
        target_label: 'Lecteurs',
        details: { permissions: ['users.list', 'roles.list'] },
      }),
    ];
    fakeApi({ 'GET audit-logs': { body: pagedAnswer(rows, 1, 10) } });
    renderApp('/admin/audit');

    const found = await table();
    await within(found).findByText('inconnu@exemple.test');
    const lines = within(found).getAllByRole('row');
    expect(lines[0]).toHaveTextContent(/Date\s*Utilisateur\s*Action\s*Cible\s*Résultat\s*Adresse IP/);
    expect(lines[1]).toHaveTextContent(dayjs('2026-07-11T09:30:05.000Z').format('DD/MM/YYYY HH:mm:ss'));
    expect(lines[1]).toHaveTextContent('Connexion');
    expect(lines[1]).toHaveTextContent('Échec (email inconnu)');
    expect(lines[1]).toHaveTextContent('203.0.113.7');
    expect(lines[2]).toHaveTextContent('Attribution de droits');
    expect(lines[2]).toHaveTextContent('Rôle Lecteurs');
    expect(lines[2]).toHaveTextContent('Droits : users.list, roles.list');
    expect(lines[2]).toHaveTextContent('Succès');
    expect(screen.getByText('2 élément(s)')).toBeInTheDocument();
  });

  it('says "Aucun événement" when there is none', async () => {
    signIn();
    fakeApi({ 'GET audit-logs': { body: pagedAnswer([], 1, 10) } });
    renderApp('/admin/audit');
    expect(await screen.findByText('Aucun événement')).toBeInTheDocument();
  });

  it("shows the server's message when the journal does not load", async () => {
    signIn();
    fakeApi({ 'GET audit-logs': { status: 500, body: { message: 'Une erreur interne est survenue. Réessayez plus tard.' } } });
    renderApp('/admin/audit');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent("Journal d'audit");
    expect(alert).toHaveTextContent('Une erreur interne est survenue. Réessayez plus tard.');
  });

  it('filters by action, result and days (sent as the local days), and keeps an inverted period to itself', async () => {
    signIn();
    const fetchMock = fakeApi({ 'GET audit-logs': { body: pagedAnswer([entry(1)], 1, 10) } });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/audit');
    await table();

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Connexion' }));
    await user.click(screen.getByRole('combobox', { name: 'Résultat' }));
    await user.click(await screen.findByRole('option', { name: 'Échec' }));
    await user.type(screen.getByRole('textbox', { name: 'Du' }), '12/07/2026');
    await user.type(screen.getByRole('textbox', { name: 'Au' }), '13/07/2026');
    await waitFor(() =>
      expect(queriesTo(fetchMock, 'audit-logs').at(-1)).toEqual({
        per_page: '10',
        page: '1',
        action: 'login',
        result: 'failure',
        from: dayjs('2026-07-12').startOf('day').toISOString(),
        to: dayjs('2026-07-13').endOf('day').toISOString(),
      }),
    );

    const sent = fetchMock.mock.calls.length;
    const to = screen.getByRole('textbox', { name: 'Au' });
    await user.clear(to);
    await user.type(to, '01/07/2026');
    expect(await screen.findByText('La date de fin doit suivre la date de début')).toBeInTheDocument();
    expect(
      queriesTo(fetchMock, 'audit-logs')
        .slice(sent)
        .every((query) => query.to !== dayjs('2026-07-01').endOf('day').toISOString()),
    ).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Réinitialiser la recherche' }));
    await waitFor(() => expect(queriesTo(fetchMock, 'audit-logs').at(-1)).toEqual({ per_page: '10', page: '1' }));
    expect(screen.getByRole('combobox', { name: 'Action' })).toHaveValue('Toutes');
  });

  it('searches on the server and pages through the true total', async () => {
    signIn();
    const all = Array.from({ length: 25 }, (_, index) => entry(25 - index, { actor_email: `compte${25 - index}@reformes.test` }));
    const fetchMock = fakeApi({
      'GET audit-logs': () => {
        // The answer follows the page asked for (the call being answered is the last one recorded).
        const query = queriesTo(fetchMock, 'audit-logs').at(-1) ?? {};
        return { body: pagedAnswer(all, Number(query.page ?? 1), 10) };
      },
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/audit');
    await within(await table()).findByText('compte25@reformes.test');
    expect(screen.getByText('25 élément(s)')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await within(await table()).findByText('compte5@reformes.test');
    expect(queriesTo(fetchMock, 'audit-logs').at(-1)).toMatchObject({ page: '3' });

    await user.type(screen.getByRole('textbox', { name: 'Rechercher' }), '203.0');
    await waitFor(() => expect(queriesTo(fetchMock, 'audit-logs').at(-1)).toEqual({ per_page: '10', page: '1', search: '203.0' }));
  });

  it('exports the filtered journal as a CSV file through the API client, with the token', async () => {
    signIn();
    const fetchMock = fakeApi({ 'GET audit-logs': { body: pagedAnswer([entry(1)], 1, 10) } });
    const base = fetchMock.getMockImplementation();
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).includes('export.csv'))
        return new Response('\uFEFFDate;Utilisateur\r\n', { headers: { 'Content-Type': 'text/csv' } });
      return (base as NonNullable<typeof base>)(input, init);
    });
    const user = userEvent.setup({ delay: null });
    renderApp('/admin/audit');
    await table();
    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'Connexion' }));

    await user.click(screen.getByRole('button', { name: 'Exporter (CSV)' }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    const [input, init] = fetchMock.mock.calls.find(([url]) => String(url).includes('export.csv')) ?? [];
    const query = Object.fromEntries(new URLSearchParams(String(input).split('?')[1]));
    expect(query).toEqual({ tz: Intl.DateTimeFormat().resolvedOptions().timeZone, action: 'login' });
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer access-1');
  });

  it('refuses a role without the right, before asking the server', async () => {
    signIn(['dashboard.list'], 'saisie');
    const fetchMock = fakeApi({});
    renderApp('/admin/audit');
    expect(await screen.findByRole('alert')).toHaveTextContent("Vous n'avez pas les droits nécessaires pour effectuer cette action.");
    expect(queriesTo(fetchMock, 'audit-logs')).toEqual([]);
  });
  it('restores its filters, search and page from a shared address, and ignores a value its rule refuses', async () => {
    signIn();
    const rows = Array.from({ length: 30 }, (_, index) => entry(index + 1));
    const fetchMock = fakeApi({ 'GET audit-logs': pagedFrom(rows) });
    renderApp('/admin/audit?result=failure&action=nope&from=2026-07-01&search=awa&page=2');

    await table();
    await waitFor(() => expect(queriesTo(fetchMock, 'audit-logs').length).toBeGreaterThan(0));
    // Page 2 of 3 stands (no clamp), and it is the only page asked for.
    expect(queriesTo(fetchMock, 'audit-logs')).toHaveLength(1);
    const sent = queriesTo(fetchMock, 'audit-logs')[0];
    expect(sent).toMatchObject({ result: 'failure', search: 'awa', page: '2' });
    expect(sent?.action).toBeUndefined();
    expect(sent?.from).toBe(dayjs('2026-07-01').startOf('day').toISOString());
    expect(screen.getByRole('textbox', { name: 'Du' })).toHaveValue('01/07/2026');
  });
});
