import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getSession, storeSignIn } from '../session/session.ts';
import { fakeApi } from '../test/fake-api.ts';
import { aUser, renderApp } from '../test/render-app.tsx';
import { SESSION_REFRESH_MS } from './use-session-refresh.ts';

const dash = {
  message: 'ok',
  data: { total_reforme: 0, total_reforme_admin: 0, total_reforme_ins: 0, total_pending: 0, users: 0, total_structures: 0 },
};

/** Lets the answers under way be handled (a macrotask: every pending promise of the refresh settles first). */
const settle = () => act(() => new Promise<void>((resolve) => setTimeout(resolve, 20)));

const userCalls = (fetchMock: ReturnType<typeof fakeApi>) => fetchMock.mock.calls.filter(([url]) => String(url) === '/api/v1/api/user');

function signInWithRights(features: string[]) {
  storeSignIn({ access_token: 'a', refresh_token: 'r', expire_in: 900, features, user: aUser() });
}

describe('session refresh (rights follow the profils screen)', { timeout: 20_000 }, () => {
  it('stores the rights and the user that GET api/user answers on arrival in the back-office', async () => {
    signInWithRights(['dashboard.list']);
    fakeApi({
      'GET dash/': { body: dash },
      'GET api/user': { body: { message: 'ok', data: { ...aUser({ name: 'Awa Ndiaye' }), features: ['dashboard.list', 'users.list'] } } },
    });
    renderApp('/admin/dashboard');
    await waitFor(() => expect(getSession().features).toEqual(['dashboard.list', 'users.list']));
    expect(getSession().user?.name).toBe('Awa Ndiaye');
    expect(getSession().user).not.toHaveProperty('features');
    expect(await screen.findByRole('button', { name: /Awa Ndiaye/ })).toBeInTheDocument();
  });

  it('asks again on navigation and on focus, at most once every few seconds', async () => {
    signInWithRights(['dashboard.list']);
    const fetchMock = fakeApi({
      'GET dash/': { body: dash },
      'GET api/user': { body: { message: 'ok', data: { ...aUser(), features: ['dashboard.list'] } } },
    });
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    const { router } = renderApp('/admin/dashboard');
    await waitFor(() => expect(userCalls(fetchMock)).toHaveLength(1));
    // The call is made; its answer must be handled too, or a focus meanwhile joins the running refresh (one at a time).
    await settle();

    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await act(() => router.navigate('/admin/user-settinngs'));
    expect(userCalls(fetchMock)).toHaveLength(1);

    now += SESSION_REFRESH_MS;
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(userCalls(fetchMock)).toHaveLength(2));
    await settle();

    now += SESSION_REFRESH_MS;
    await act(() => router.navigate('/admin/dashboard'));
    await waitFor(() => expect(userCalls(fetchMock)).toHaveLength(3));
  });

  it('keeps the stored session when the refresh fails', async () => {
    signInWithRights(['dashboard.list']);
    const fetchMock = fakeApi({ 'GET dash/': { body: dash }, 'GET api/user': { status: 500, body: { message: 'panne' } } });
    renderApp('/admin/dashboard');
    await waitFor(() => expect(userCalls(fetchMock)).toHaveLength(1));
    await screen.findByRole('heading', { name: 'Tableau de bord', level: 1 });
    expect(getSession().features).toEqual(['dashboard.list']);
    expect(getSession().accessToken).toBe('a');
  });
});
