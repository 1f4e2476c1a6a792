import { DIRECTORY_MESSAGES, DIRECTORY_OUTCOME_ELEMENT_ID, readStored, SESSION_KEYS, takeToasts } from '@reformes/domain';
import { screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../../session/session.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { aUser, signInAs } from '../../test/render-app.tsx';
import { leavePage } from '../dom.ts';
import { render } from '../html.ts';
import { loginPageHtml } from './auth-markup.ts';
import { parseOutcome } from './directory-outcome.ts';
import { startLogin } from './login-form.ts';

const options = (directory: { label: string } | null, password_signin = true) => ({
  'GET auth/options': { body: { message: 'ok', data: { directory, password_signin } } },
});

/** The sign-in page as the server answers the directory's callback: the page, with the outcome's element. */
function openCallbackPage(outcome: unknown) {
  render(document.body, loginPageHtml());
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = DIRECTORY_OUTCOME_ELEMENT_ID;
  element.textContent = JSON.stringify(outcome);
  document.body.append(element);
  startLogin();
}

describe('the sign-in page and the directory (issue 42)', () => {
  beforeEach(() => {
    vi.spyOn(leavePage, 'to').mockImplementation(() => {});
    clearSession();
    takeToasts(sessionStorage);
    history.replaceState(null, '', '/auth/oidc/callback?code=c&state=s');
  });

  it('shows no directory button when the server has none, and the button named by OIDC_LABEL when it has one', async () => {
    fakeApi(options(null));
    render(document.body, loginPageHtml());
    startLogin();
    await waitFor(() => expect(document.getElementById('directory-offer')).toHaveAttribute('hidden'));
    expect(screen.queryByRole('link', { name: "Se connecter avec l'annuaire de l'administration" })).toBeNull();

    fakeApi(options({ label: 'Se connecter avec ProConnect' }));
    render(document.body, loginPageHtml());
    startLogin();
    const button = await screen.findByRole('link', { name: 'Se connecter avec ProConnect' });
    expect(button).toHaveAttribute('href', '/api/v1/auth/oidc/authorize');
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeVisible();
  });

  it('folds the password form under « Connexion par mot de passe (administrateurs) » when PASSWORD_SIGNIN=false', async () => {
    fakeApi(options({ label: 'Annuaire' }, false));
    render(document.body, loginPageHtml());
    startLogin();
    const summary = await screen.findByText(DIRECTORY_MESSAGES.passwordFormAdminsOnly);
    expect(summary.tagName).toBe('SUMMARY');
    expect(summary.closest('details')?.querySelector('#login-form')).not.toBeNull();
  });

  it('stores the session the callback carries and opens the home, the address no longer the callback', async () => {
    fakeApi(options({ label: 'Annuaire' }));
    const user = aUser();
    openCallbackPage({
      kind: 'signed_in',
      session: { access_token: 'a', refresh_token: 'r', expire_in: 900, token_type: 'Bearer', features: ['reformes.list'], user },
    });
    expect(window.location.pathname).toBe('/auth/login');
    await waitFor(() => expect(leavePage.to).toHaveBeenCalledWith('/admin/dashboard'));
    expect(readStored(localStorage, SESSION_KEYS.accessToken, null)).toBe('a');
  });

  it('decides over a stored session: a link done from « Mon compte » goes back there with its message', async () => {
    fakeApi(options({ label: 'Annuaire' }));
    signInAs(aUser());
    openCallbackPage({ kind: 'linked' });
    await waitFor(() => expect(leavePage.to).toHaveBeenCalledWith('/admin/user-account?tab=directory'));
    expect(takeToasts(sessionStorage)).toEqual([{ color: 'green', message: DIRECTORY_MESSAGES.linked }]);
  });

  it('tells a refusal in the page alert, and asks for the code when the account has a second factor', async () => {
    fakeApi(options({ label: 'Annuaire' }));
    openCallbackPage({ kind: 'refused', message: DIRECTORY_MESSAGES.noAccount, back_to: 'sign_in' });
    expect(await screen.findByRole('alert')).toHaveTextContent(DIRECTORY_MESSAGES.noAccount);
    expect(leavePage.to).not.toHaveBeenCalled();

    openCallbackPage({ kind: 'two_factor', challenge_token: 'defi' });
    await waitFor(() => expect(screen.getByRole('textbox', { name: /Code/ })).toBeVisible());
  });

  it('reads anything else than an outcome as a failed dance', () => {
    expect(parseOutcome('pas du JSON')).toEqual({ kind: 'refused', message: DIRECTORY_MESSAGES.danceFailed, back_to: 'sign_in' });
    expect(parseOutcome('{"kind":"signed_in"}').kind).toBe('refused');
  });
});
