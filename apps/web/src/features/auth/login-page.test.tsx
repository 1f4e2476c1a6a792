import { MESSAGES } from '@reformes/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { getSession } from '../../session/session.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { aUser, renderApp } from '../../test/render-app.tsx';

const dash = {
  message: 'ok',
  data: { total_reforme: 0, total_reforme_admin: 0, total_reforme_ins: 0, total_pending: 0, users: 0, total_structures: 0 },
};
const signedIn = (user = aUser()) => ({
  body: { message: 'ok', data: { access_token: 'a', refresh_token: 'r', expire_in: 900, features: ['reformes.list'], user } },
});

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  const submit = await screen.findByRole('button', { name: 'Se connecter' });
  if (email) await user.type(screen.getByLabelText(/Email/), email);
  if (password) await user.type(screen.getByLabelText(/Mot de passe/, { selector: 'input' }), password);
  await user.click(submit);
}

describe('login screen', () => {
  it('sends nothing and shows the field messages when the fields are empty', async () => {
    const fetchMock = fakeApi({});
    renderApp('/login');
    await fillAndSubmit('', '');
    expect(await screen.findByText(MESSAGES.emailRequired)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.passwordRequired)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('signs in, stores the session and opens the dashboard', async () => {
    const fetchMock = fakeApi({ 'POST api/login': signedIn(), 'GET dash/': { body: dash } });
    const { router } = renderApp('/login');
    await fillAndSubmit('awa@reformes.test', 'Reformes2026!');

    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(await screen.findByText(MESSAGES.loginSuccess)).toBeInTheDocument();
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({
      email: 'awa@reformes.test',
      password: 'Reformes2026!',
      device: 'web',
    });
    expect(getSession()).toMatchObject({ accessToken: 'a', refreshToken: 'r', features: ['reformes.list'], roleIndex: 0 });
  });

  it('leads a user with a temporary password to the first-password screen', async () => {
    fakeApi({ 'POST api/login': signedIn(aUser({ must_change_password: true })) });
    const { router } = renderApp('/login');
    await fillAndSubmit('awa@reformes.test', 'Temporaire1');
    expect(await screen.findByRole('heading', { name: 'Première connexion' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/activate-account');
  });

  it("shows the server's message titled Connexion when the sign-in fails", async () => {
    fakeApi({ 'POST api/login': { status: 401, body: { message: MESSAGES.invalidCredentials } } });
    renderApp('/login');
    await fillAndSubmit('awa@reformes.test', 'mauvais');
    expect(await screen.findByText(MESSAGES.invalidCredentials)).toBeInTheDocument();
    expect(screen.getByText('Connexion')).toBeInTheDocument();
    expect(getSession().accessToken).toBeNull();
  });

  it('links to the forgotten-password screen', async () => {
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Mot de passe oublié ?' })).toHaveAttribute('href', '/auth/forget-password');
  });
});

describe('login screen while signing in', () => {
  it('reads "Connexion..." and cannot be sent twice', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    renderApp('/login');
    await fillAndSubmit('awa@reformes.test', 'Reformes2026!');
    expect(await screen.findByRole('button', { name: 'Connexion...' })).toBeDisabled();
  });
});
