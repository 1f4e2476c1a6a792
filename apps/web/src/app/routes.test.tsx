import { MESSAGES } from '@reformes/domain';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { leavePage } from '../session/leave-page.ts';
import { fakeApi } from '../test/fake-api.ts';
import { aUser, renderApp, signInAs } from '../test/render-app.tsx';

const dash = {
  message: 'ok',
  data: { total_reforme: 3, total_reforme_admin: 1, total_reforme_ins: 2, total_pending: 0, users: 5, total_structures: 2 },
};

describe('route table and guards', () => {
  it('sends the empty path to the public page /accueil, a page of the server (issue 34)', async () => {
    const leave = vi.spyOn(leavePage, 'to').mockImplementation(() => {});
    const { router } = renderApp('/');
    await waitFor(() => expect(leave).toHaveBeenCalledWith('/accueil'));
    expect(router.state.location.pathname).toBe('/accueil');
  });

  it.each(['/auth/login', '/login', '/admin/login', '/auth/forget-password', '/accueil/reformes/4'])(
    'leaves for the server page of %s, without a token',
    async (path) => {
      const leave = vi.spyOn(leavePage, 'to').mockImplementation(() => {});
      renderApp(path);
      await waitFor(() => expect(leave).toHaveBeenCalledWith(path));
    },
  );

  it.each(['/auth/login', '/login', '/admin/login'])('sends a signed-in visitor from %s to the dashboard', async (path) => {
    signInAs();
    fakeApi({ 'GET dash/': { body: dash } });
    const { router } = renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Tableau de bord' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
  });

  it('sends a visitor without a token from /admin to /login', async () => {
    const leave = vi.spyOn(leavePage, 'to').mockImplementation(() => {});
    const { router } = renderApp('/admin/dashboard');
    await waitFor(() => expect(leave).toHaveBeenCalledWith('/login'));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('keeps a user with a temporary password on the first-password screen', async () => {
    signInAs(aUser({ must_change_password: true }));
    const { router } = renderApp('/admin/dashboard');
    expect(await screen.findByRole('heading', { name: 'Première connexion' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/auth/activate-account');
  });

  it('refuses the first-password screen to a visitor without a temporary password', async () => {
    const leave = vi.spyOn(leavePage, 'to').mockImplementation(() => {});
    const { router } = renderApp('/auth/activate-account');
    await waitFor(() => expect(leave).toHaveBeenCalledWith('/login'));
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends the recovery screen without a token to /admin/login', async () => {
    const leave = vi.spyOn(leavePage, 'to').mockImplementation(() => {});
    const { router } = renderApp('/auth/recovery-password');
    await waitFor(() => expect(leave).toHaveBeenCalledWith('/admin/login'));
    expect(router.state.location.pathname).toBe('/admin/login');
  });

  it('shows the recovery screen with a token', async () => {
    renderApp('/auth/recovery-password/abc123');
    expect(await screen.findByRole('heading', { name: 'Saisir un nouveau mot de passe' })).toBeInTheDocument();
  });

  it.each(['/404', '/nimporte/quoi'])('shows the not-found page at %s with a link to the root', async (path) => {
    renderApp(path);
    expect(await screen.findByText(MESSAGES.notFoundPage)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: "Retour à l'accueil" })).toHaveAttribute('href', '/');
  });

  it('shows the not-found page inside the shell for an /admin child that does not exist', async () => {
    signInAs();
    renderApp('/admin/page-inexistante');
    expect(await screen.findByText(MESSAGES.notFoundPage)).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Menu principal' })).toBeInTheDocument();
  });

  it.each([
    ['/admin/users', 'users', 'Liste des utilisateurs'],
    ['/admin/sectors', 'sectors', 'Liste des secteurs'],
    ['/admin/structures', 'structures', 'Liste des structures'],
    ['/admin/natures', 'natures', 'Liste des natures'],
    ['/admin/covers', 'covers', 'Liste des couvertures'],
    ['/admin/entities', 'entities', 'Liste des entités administratives'],
  ])('shows %s, a list of the shared pattern', async (path, resource, title) => {
    signInAs();
    const empty = { message: 'ok', isPaginate: true, data: { data: [], current_page: 1, per_page: 10, total: 0, last_page: 1 } };
    fakeApi({ [`GET ${resource}`]: { body: empty } });
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('0 élément(s)')).toBeInTheDocument();
  });

  it('fetches the user again when only the token is stored', async () => {
    localStorage.setItem('access_token', JSON.stringify('access-1'));
    fakeApi({ 'GET api/user': { body: { message: 'ok', data: aUser({ name: 'Moussa Sow' }) } }, 'GET dash/': { body: dash } });
    renderApp('/admin/dashboard');
    expect(screen.getByText(MESSAGES.loading)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: /Moussa Sow/ })).toBeInTheDocument());
  });
});
