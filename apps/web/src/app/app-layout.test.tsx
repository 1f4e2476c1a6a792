import { MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getSession } from '../session/session.ts';
import { fakeApi } from '../test/fake-api.ts';
import { aUser, renderApp, signInAs } from '../test/render-app.tsx';

const dash = {
  message: 'ok',
  data: { total_reforme: 0, total_reforme_admin: 0, total_reforme_ins: 0, total_pending: 0, users: 0, total_structures: 0 },
};

async function openUserMenu(name: RegExp) {
  await userEvent.click(await screen.findByRole('button', { name }));
  return screen.findByRole('menu');
}

describe('layout shell', () => {
  it('opens the side menu by default and toggles it with the burger', async () => {
    signInAs();
    fakeApi({ 'GET dash/': { body: dash } });
    renderApp('/admin/dashboard');
    const burger = await screen.findByRole('button', { name: 'Afficher/masquer le menu' });
    expect(burger).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(burger);
    expect(burger).toHaveAttribute('aria-expanded', 'false');
  });

  it('shows "Non défini" when the user has no name', async () => {
    signInAs(aUser({ name: '' }));
    fakeApi({ 'GET dash/': { body: dash } });
    renderApp('/admin/dashboard');
    expect(await screen.findByRole('button', { name: /Non défini/ })).toBeInTheDocument();
  });

  it('signs out: calls the server, forgets the session and returns to /login', async () => {
    signInAs();
    const fetchMock = fakeApi({ 'GET dash/': { body: dash }, 'GET logout': { body: { message: 'ok' } } });
    const { router } = renderApp('/admin/dashboard');
    const menu = await openUserMenu(/Awa Diallo/);
    expect(within(menu).getByText('awa@reformes.test')).toBeInTheDocument();
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Déconnexion' }));

    expect(await screen.findByText(MESSAGES.logoutSuccess)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(getSession().accessToken).toBeNull();
    expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/v1/logout')).toBe(true);
  });

  it('signs out even when the server does not answer', async () => {
    signInAs();
    fakeApi({ 'GET dash/': { body: dash }, 'GET logout': { status: 500, body: { message: 'panne' } } });
    const { router } = renderApp('/admin/dashboard');
    await userEvent.click(within(await openUserMenu(/Awa Diallo/)).getByRole('menuitem', { name: 'Déconnexion' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});

describe('profile modal', () => {
  async function openProfile() {
    await userEvent.click(within(await openUserMenu(/Awa Diallo/)).getByRole('menuitem', { name: 'Mon profil' }));
    return screen.findByRole('dialog', { name: 'Mon profil' });
  }

  it('keeps "Enregistrer" disabled while the phone holds anything but digits', async () => {
    signInAs();
    fakeApi({ 'GET dash/': { body: dash } });
    renderApp('/admin/dashboard');
    const dialog = await openProfile();
    const phone = within(dialog).getByLabelText(/Téléphone/);
    await userEvent.clear(phone);
    await userEvent.type(phone, '77a');
    expect(await within(dialog).findByText(MESSAGES.phoneDigits)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
  });

  it('saves the profile and keeps the updated user', async () => {
    signInAs();
    const fetchMock = fakeApi({
      'GET dash/': { body: dash },
      'POST api/user-update': { body: { message: 'ok', data: aUser({ name: 'Awa Ndiaye', lastname: 'Ndiaye' }) } },
    });
    renderApp('/admin/dashboard');
    const dialog = await openProfile();
    const lastname = within(dialog).getByLabelText(/Nom/);
    await userEvent.clear(lastname);
    await userEvent.type(lastname, 'Ndiaye');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));

    expect(await screen.findByText(MESSAGES.profileUpdated)).toBeInTheDocument();
    expect(getSession().user?.lastname).toBe('Ndiaye');
    expect(await screen.findByRole('button', { name: /Awa Ndiaye/ })).toBeInTheDocument();
    const update = fetchMock.mock.calls.find(([url]) => String(url) === '/api/v1/api/user-update');
    expect(JSON.parse(String(update?.[1]?.body))).toEqual({
      lastname: 'Ndiaye',
      firstname: 'Awa',
      email: 'awa@reformes.test',
      phone: '770000000',
    });
  });
});
