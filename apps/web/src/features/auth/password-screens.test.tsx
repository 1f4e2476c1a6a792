import { MESSAGES } from '@reformes/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../../session/session.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { aUser, renderApp, signInAs } from '../../test/render-app.tsx';

async function typePasswords(password: string, confirmation: string, submitName: string) {
  const user = userEvent.setup();
  const submit = await screen.findByRole('button', { name: submitName });
  await user.type(screen.getByLabelText(/Nouveau mot de passe/, { selector: 'input' }), password);
  await user.type(screen.getByLabelText(/Confirmation du mot de passe/, { selector: 'input' }), confirmation);
  await user.click(submit);
}

describe('first password', () => {
  it('refuses two different passwords', async () => {
    signInAs(aUser({ must_change_password: true }));
    const fetchMock = fakeApi({});
    renderApp('/auth/activate-account');
    await typePasswords('NouveauMdp1', 'NouveauMdp2', 'Changer le mot de passe');
    expect(await screen.findByText(MESSAGES.passwordsDiffer)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a password shorter than 8 characters', async () => {
    signInAs(aUser({ must_change_password: true }));
    renderApp('/auth/activate-account');
    await typePasswords('court', 'court', 'Changer le mot de passe');
    expect((await screen.findAllByText(MESSAGES.passwordMin)).length).toBeGreaterThan(0);
  });

  it('changes the password, then ends the session and returns to /login', async () => {
    signInAs(aUser({ must_change_password: true }));
    const fetchMock = fakeApi({ 'POST api/change-first-password': { body: { message: 'ok' } } });
    const { router } = renderApp('/auth/activate-account');
    await typePasswords('NouveauMdp1', 'NouveauMdp1', 'Changer le mot de passe');

    expect(await screen.findByText(MESSAGES.passwordChanged)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.logoutSuccess)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(getSession().accessToken).toBeNull();
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({
      password: 'NouveauMdp1',
      confirm_password: 'NouveauMdp1',
    });
  });

  it('says that the change failed, titled Première connexion', async () => {
    signInAs(aUser({ must_change_password: true }));
    fakeApi({ 'POST api/change-first-password': { status: 422, body: { message: 'Mot de passe refusé' } } });
    renderApp('/auth/activate-account');
    await typePasswords('NouveauMdp1', 'NouveauMdp1', 'Changer le mot de passe');
    expect(await screen.findByText(MESSAGES.passwordChangeFailed)).toBeInTheDocument();
    expect(screen.getByText('Mot de passe refusé')).toBeInTheDocument();
    expect(screen.getAllByText('Première connexion').length).toBeGreaterThan(1);
  });
});

describe('first password, signing out instead', () => {
  it('lets someone who signed in with the wrong account leave for /login', async () => {
    signInAs(aUser({ must_change_password: true }));
    const fetchMock = fakeApi({ 'GET logout': { body: { message: MESSAGES.logoutDone } } });
    const { router } = renderApp('/auth/activate-account');
    await userEvent.click(await screen.findByRole('button', { name: 'Se déconnecter' }));

    expect(await screen.findByText(MESSAGES.logoutSuccess)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(getSession().accessToken).toBeNull();
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/v1/logout');
  });
});

describe('password recovery', () => {
  it('sends the token of the link with the new password, then returns to /login', async () => {
    const fetchMock = fakeApi({ 'POST api/recovery-password': { body: { message: 'ok' } } });
    const { router } = renderApp('/auth/recovery-password/jeton-42');
    await typePasswords('NouveauMdp1', 'NouveauMdp1', 'Changer le mot de passe');
    expect(await screen.findByText(MESSAGES.passwordChanged)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({
      token: 'jeton-42',
      password: 'NouveauMdp1',
      password_confirmation: 'NouveauMdp1',
    });
  });

  it("shows the failure with the server's message", async () => {
    fakeApi({ 'POST api/recovery-password': { status: 400, body: { message: MESSAGES.invalidResetToken } } });
    renderApp('/auth/recovery-password/perime');
    await typePasswords('NouveauMdp1', 'NouveauMdp1', 'Changer le mot de passe');
    expect(await screen.findByText(MESSAGES.passwordChangeFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invalidResetToken)).toBeInTheDocument();
  });
});
