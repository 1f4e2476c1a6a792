import { AUTH_ROUTES, ERROR_CODES, MESSAGES, readStored, SESSION_KEYS, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { takeToasts } from '../../session/flash.ts';
import { clearSession, getSession } from '../../session/session.ts';
import { fakeApi, lastBody } from '../../test/fake-api.ts';
import { aUser, signInAs } from '../../test/render-app.tsx';
import { leavePage } from '../dom.ts';
import { render } from '../html.ts';
import { loginPageHtml } from './auth-markup.ts';
import { startLogin } from './login-form.ts';

const signedIn = (user = aUser()) => ({
  body: { message: 'ok', data: { access_token: 'a', refresh_token: 'r', expire_in: 900, features: ['reformes.list'], user } },
});
const challenge = { body: { message: TWO_FACTOR_MESSAGES.signInStep, data: { two_factor_required: true, challenge_token: 'defi.signe' } } };

/** The access token the sign-in page leaves to the back office, read as the back office reads it. */
const storedToken = () => readStored<string | null>(localStorage, SESSION_KEYS.accessToken, null);

/** The page as the server sends it, run by its script. */
function openLoginPage() {
  render(document.body, loginPageHtml());
  startLogin();
  return userEvent.setup();
}

async function signInWith(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  if (email) await user.type(screen.getByRole('textbox', { name: 'Email' }), email);
  if (password) await user.type(screen.getByLabelText(/Mot de passe/, { selector: 'input' }), password);
  await user.click(screen.getByRole('button', { name: 'Se connecter' }));
}

describe('sign-in page without React (issue 34)', { timeout: 30_000 }, () => {
  // jsdom cannot load another document: leaving for the back office is recorded, not done.
  beforeEach(() => {
    vi.spyOn(leavePage, 'to').mockImplementation(() => {});
  });

  it('sends nothing and shows the field messages when the fields are empty or the email is not one', async () => {
    const fetchMock = fakeApi({});
    const user = openLoginPage();
    await signInWith(user, '', '');
    expect(await screen.findByText(MESSAGES.emailRequired)).toBeVisible();
    expect(screen.getByText(MESSAGES.passwordRequired)).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('textbox', { name: 'Email' })).toHaveAccessibleDescription(MESSAGES.emailRequired);
    await signInWith(user, 'pas-un-email', '');
    expect(await screen.findByText(MESSAGES.emailInvalid)).toBeVisible();
    // The page asks only what it offers (issue 42), never a sign-in.
    expect(fetchMock.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET auth/options']);
  });

  it('signs in, stores the session and opens the dashboard, which then says "Connexion réussie"', async () => {
    const api = fakeApi({ [`POST ${AUTH_ROUTES.login.path.slice(1)}`]: signedIn() });
    const user = openLoginPage();
    await signInWith(user, 'awa@reformes.test', 'Reformes2026!');
    await waitFor(() => expect(leavePage.to).toHaveBeenCalledWith('/admin/dashboard'));
    expect(lastBody(api.calls, 'POST', 'api/login')).toEqual({ email: 'awa@reformes.test', password: 'Reformes2026!', device: 'web' });
    expect(getSession()).toMatchObject({ accessToken: 'a', refreshToken: 'r', features: ['reformes.list'], roleIndex: 0 });
    expect(takeToasts()).toEqual([{ color: 'green', title: 'Connexion', message: MESSAGES.loginSuccess }]);
  });

  it('leads a user with a temporary password to the first-password screen, and one whose role demands a second factor to its enrolment', async () => {
    fakeApi({ 'POST api/login': signedIn(aUser({ must_change_password: true })) });
    let user = openLoginPage();
    await signInWith(user, 'awa@reformes.test', 'Temporaire1');
    await waitFor(() => expect(leavePage.to).toHaveBeenCalledWith('/auth/activate-account'));

    clearSession();
    fakeApi({ 'POST api/login': signedIn(aUser({ two_factor: { enabled: false, required: true } })) });
    user = openLoginPage();
    await signInWith(user, 'awa@reformes.test', 'Reformes2026!');
    await waitFor(() => expect(leavePage.to).toHaveBeenCalledWith('/auth/two-factor-setup'));
  });

  it("shows the server's message in a toast titled Connexion when the sign-in fails", async () => {
    fakeApi({ 'POST api/login': { status: 401, body: { message: MESSAGES.invalidCredentials } } });
    const user = openLoginPage();
    await signInWith(user, 'awa@reformes.test', 'mauvais');
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent(MESSAGES.invalidCredentials);
    expect(toast).toHaveTextContent('Connexion');
    expect(storedToken()).toBeNull();
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeEnabled();
    expect(leavePage.to).not.toHaveBeenCalled();
  });

  it('reads "Connexion..." and cannot be sent twice while signing in', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    const user = openLoginPage();
    await signInWith(user, 'awa@reformes.test', 'Reformes2026!');
    expect(await screen.findByRole('button', { name: 'Connexion...' })).toBeDisabled();
  });

  it('asks for the code after the password, checks its form, and opens the session with the right one', async () => {
    const api = fakeApi({
      'POST api/login': challenge,
      'POST api/login/2fa': ({ body }) =>
        (body as { code: string }).code === '123456'
          ? signedIn()
          : {
              status: 401,
              body: {
                message: TWO_FACTOR_MESSAGES.invalidCode,
                errorsList: { code: [TWO_FACTOR_MESSAGES.invalidCode] },
                code: ERROR_CODES.twoFactorInvalidCode,
              },
            },
    });
    const user = openLoginPage();
    await signInWith(user, 'awa@reformes.test', 'Reformes2026!');
    const code = await screen.findByRole('textbox', { name: new RegExp(TWO_FACTOR_MESSAGES.codeLabel) });
    await waitFor(() => expect(code).toHaveFocus());
    expect(screen.getByText(TWO_FACTOR_MESSAGES.signInStep)).toBeVisible();
    expect(storedToken()).toBeNull();

    await user.type(code, '12ab');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.codeFormat)).toBeVisible();

    await user.clear(code);
    await user.type(code, '654 321');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findAllByText(TWO_FACTOR_MESSAGES.invalidCode)).not.toHaveLength(0);
    expect(lastBody(api.calls, 'POST', 'api/login/2fa')).toEqual({ challenge_token: 'defi.signe', code: '654321' });

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await waitFor(() => expect(leavePage.to).toHaveBeenCalledWith('/admin/dashboard'));
    expect(storedToken()).toBe('a');
  });

  it('goes back to the password when the challenge expired, or when asked', async () => {
    fakeApi({
      'POST api/login': challenge,
      'POST api/login/2fa': {
        status: 401,
        body: { message: TWO_FACTOR_MESSAGES.challengeExpired, code: ERROR_CODES.twoFactorChallengeExpired },
      },
    });
    const user = openLoginPage();
    await signInWith(user, 'awa@reformes.test', 'Reformes2026!');
    await user.type(await screen.findByRole('textbox', { name: new RegExp(TWO_FACTOR_MESSAGES.codeLabel) }), '123456');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Se connecter' }));
    await user.click(await screen.findByRole('button', { name: 'Retour à la connexion' }));
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  });

  it('cannot be sent before its script runs, which would put the password in the address', () => {
    render(document.body, loginPageHtml());
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeDisabled();
    startLogin();
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeEnabled();
  });

  it('shows and hides the password with the eye button, and links to the forgotten-password page', async () => {
    const user = openLoginPage();
    const password = screen.getByLabelText(/Mot de passe/, { selector: 'input' });
    const eye = screen.getByRole('button', { name: 'Afficher le mot de passe' });
    await user.click(eye);
    expect(password).toHaveAttribute('type', 'text');
    expect(eye).toHaveAttribute('aria-pressed', 'true');
    await user.click(eye);
    expect(password).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Mot de passe oublié ?' })).toHaveAttribute('href', '/auth/forget-password');
  });

  it('sends a visitor with a stored session to its home, and shows what the page before handed over', async () => {
    signInAs(aUser({ must_change_password: true }));
    openLoginPage();
    expect(leavePage.to).toHaveBeenCalledWith('/auth/activate-account');

    clearSession();
    sessionStorage.setItem('pending_toasts', JSON.stringify([{ color: 'green', title: 'Connexion', message: MESSAGES.logoutSuccess }]));
    openLoginPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.logoutSuccess);
  });
});
