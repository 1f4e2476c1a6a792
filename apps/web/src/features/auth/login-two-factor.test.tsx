import { TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../session/session.ts';
import { fakeApi, lastBody } from '../../test/fake-api.ts';
import { aUser, renderApp } from '../../test/render-app.tsx';

const challenge = { body: { message: TWO_FACTOR_MESSAGES.signInStep, data: { two_factor_required: true, challenge_token: 'defi.signe' } } };
const signedIn = (user = aUser()) => ({
  body: { message: 'ok', data: { access_token: 'a', refresh_token: 'r', expire_in: 900, features: [], user } },
});

async function signInWithPassword() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(/Email/), 'awa@reformes.test');
  await user.type(screen.getByLabelText(/Mot de passe/, { selector: 'input' }), 'Reformes2026!');
  await user.click(screen.getByRole('button', { name: 'Se connecter' }));
  return user;
}

describe('sign-in with a second factor (issue 18)', { timeout: 60_000 }, () => {
  it('asks for the code after the password, checks its form, and opens the session with the right one', async () => {
    const api = fakeApi({
      'POST api/login': challenge,
      'POST api/login/2fa': ({ body }) =>
        (body as { code: string }).code === '123456'
          ? signedIn()
          : { status: 401, body: { message: TWO_FACTOR_MESSAGES.invalidCode, errorsList: { code: [TWO_FACTOR_MESSAGES.invalidCode] } } },
    });
    const { router } = renderApp('/login');
    const user = await signInWithPassword();

    const code = await screen.findByRole('textbox', { name: new RegExp(TWO_FACTOR_MESSAGES.codeLabel) });
    expect(screen.getByText(TWO_FACTOR_MESSAGES.signInStep)).toBeInTheDocument();
    expect(getSession().accessToken).toBeNull();

    await user.type(code, '12ab');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.codeFormat)).toBeInTheDocument();

    await user.clear(code);
    await user.type(code, '654 321');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findAllByText(TWO_FACTOR_MESSAGES.invalidCode)).not.toHaveLength(0);
    expect(lastBody(api.calls, 'POST', 'api/login/2fa')).toEqual({ challenge_token: 'defi.signe', code: '654321' });

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'));
    expect(getSession().accessToken).toBe('a');
  });

  it('sends a user whose role demands a second factor to its enrolment first', async () => {
    fakeApi({
      'POST api/login': signedIn(aUser({ two_factor: { enabled: false, required: true } })),
      'POST api/2fa/setup': { status: 500, body: { message: 'x' } },
    });
    const { router } = renderApp('/login');
    await signInWithPassword();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/two-factor-setup'));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.required)).toBeInTheDocument();
  });
});
