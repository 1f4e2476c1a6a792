import { DIRECTORY_MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { leavePage } from '../../session/leave-page.ts';
import { getSession } from '../../session/session.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { aUser, renderApp, signInAs } from '../../test/render-app.tsx';

const options = (directory: { label: string } | null) => ({
  'GET auth/options': { body: { message: 'ok', data: { directory, password_signin: true } } },
});
const link = { issuer: 'https://annuaire.gouv.test', subject: 'agent-42', linked_at: '2026-11-20T09:30:00.000Z' };

describe('« Mon compte » > « Annuaire » (issue 42)', () => {
  beforeEach(() => {
    vi.spyOn(leavePage, 'to').mockImplementation(() => {});
  });

  it('has no « Annuaire » tab when the directory is not configured and the account is not linked', async () => {
    signInAs(aUser());
    fakeApi(options(null));
    renderApp('/admin/user-account');
    expect(await screen.findByRole('tab', { name: 'Information personnelle' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('tab', { name: 'Annuaire' })).not.toBeInTheDocument());
  });

  it("links the account: « Lier à l'annuaire » sends the browser to the provider", async () => {
    signInAs(aUser());
    fakeApi({
      ...options({ label: 'Annuaire' }),
      'POST auth/oidc/link': { body: { message: 'ok', data: { authorization_url: 'https://annuaire.gouv.test/authorize?x=1' } } },
    });
    renderApp('/admin/user-account?tab=directory');
    const panel = await screen.findByRole('tabpanel', { name: 'Annuaire' });
    expect(within(panel).getByText(DIRECTORY_MESSAGES.notLinked)).toBeVisible();
    await userEvent.click(within(panel).getByRole('button', { name: DIRECTORY_MESSAGES.linkButton }));
    await waitFor(() => expect(leavePage.to).toHaveBeenCalledWith('https://annuaire.gouv.test/authorize?x=1'));
  });

  it('shows the link and removes it after a confirmation; without a password the button is off and says why', async () => {
    signInAs(aUser({ directory_link: link }));
    const api = fakeApi({
      ...options({ label: 'Annuaire' }),
      'DELETE auth/oidc/link': { body: { message: DIRECTORY_MESSAGES.unlinked, data: aUser({ directory_link: null }) } },
    });
    renderApp('/admin/user-account?tab=directory');
    const panel = await screen.findByRole('tabpanel', { name: 'Annuaire' });
    expect(within(panel).getByText(/agent-42/)).toBeVisible();
    await userEvent.click(within(panel).getByRole('button', { name: DIRECTORY_MESSAGES.unlinkButton }));
    const dialog = await screen.findByRole('dialog', { name: DIRECTORY_MESSAGES.unlinkButton });
    expect(within(dialog).getByText(DIRECTORY_MESSAGES.unlinkConfirm)).toBeVisible();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));
    await waitFor(() => expect(getSession().user?.directory_link).toBeNull());
    expect(api.calls.some((call) => call.method === 'DELETE' && call.path === 'auth/oidc/link')).toBe(true);
  });

  it('cannot unlink an account without a password', async () => {
    signInAs(aUser({ directory_link: link, has_password: false }));
    fakeApi(options({ label: 'Annuaire' }));
    renderApp('/admin/user-account?tab=directory');
    const panel = await screen.findByRole('tabpanel', { name: 'Annuaire' });
    expect(within(panel).getByRole('button', { name: DIRECTORY_MESSAGES.unlinkButton })).toBeDisabled();
    expect(within(panel).getByText(DIRECTORY_MESSAGES.unlinkNeedsPassword)).toBeVisible();
  });

  it('« Déconnexion » of a directory session ends it at the provider, which comes back to the sign-in page', async () => {
    signInAs(aUser({ directory_link: link }));
    fakeApi({
      ...options({ label: 'Annuaire' }),
      'GET dash/': { body: { message: 'ok', data: {} } },
      'GET logout': { body: { message: 'Déconnexion réussie', logout_url: 'https://annuaire.gouv.test/logout?id_token_hint=x' } },
    });
    renderApp('/admin/user-account');
    await userEvent.click(await screen.findByRole('button', { name: /Menu utilisateur/ }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Déconnexion' }));
    await waitFor(() => expect(leavePage.to).toHaveBeenCalledWith('https://annuaire.gouv.test/logout?id_token_hint=x'));
    // The local session goes with the page (jsdom does not leave: the page's hiding is played here).
    expect(getSession().accessToken).not.toBeNull();
    window.dispatchEvent(new Event('pagehide'));
    expect(getSession().accessToken).toBeNull();
  });
});
