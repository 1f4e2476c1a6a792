import { type DashboardView, dashboardShape, TITLES } from '@reformes/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storeSignIn } from '../../session/session.ts';
import { fakeApi, shaped } from '../../test/fake-api.ts';
import { aUser, renderApp, signInAs } from '../../test/render-app.tsx';

const figures: DashboardView = {
  total_reforme: 31,
  total_reforme_admin: 12,
  total_reforme_ins: 9,
  total_pending: 4,
  users: 6,
  total_structures: 3,
  by_etat: [
    { etat_mor: 'en_cours', label: 'En cours', total: 20 },
    { etat_mor: 'terminee', label: 'Terminée', total: 1234 },
  ],
  by_nature: [
    { id: 1, code: 'administrative', libnature: 'Administrative', total: 12 },
    { id: 2, code: 'structurelle', libnature: 'Structurelle', total: 10 },
  ],
};

function card(label: string) {
  return within(screen.getByText(label, { selector: 'p' }).parentElement as HTMLElement);
}

describe('dashboard', () => {
  it('shows the admin cards with live figures', async () => {
    signInAs(aUser({ roles: [{ id: 1, name: 'admin' }] }));
    fakeApi({ 'GET dash/': shaped(dashboardShape, figures) });
    renderApp('/admin/dashboard');

    expect(await screen.findByText('Réformes', { selector: 'p' })).toBeInTheDocument();
    expect(card('Réformes').getByText('31')).toBeInTheDocument();
    expect(card('Réformes administratives').getByText('12')).toBeInTheDocument();
    expect(card('Réformes institutionnelles').getByText('9')).toBeInTheDocument();
    expect(card('Compte Utilisateurs').getByText('6')).toBeInTheDocument();
    expect(card('Structures').getByText('3')).toBeInTheDocument();
    expect(screen.queryByText(/en attente/)).not.toBeInTheDocument();
  });

  it('draws the reforms by état and by nature as charts that read out their figures', async () => {
    signInAs(aUser({ roles: [{ id: 1, name: 'saisie' }] }));
    fakeApi({ 'GET dash/': shaped(dashboardShape, figures) });
    renderApp('/admin/dashboard');

    const byEtat = await screen.findByRole('img', { name: /Réformes par état/ });
    expect(byEtat).toHaveAccessibleName(
      `Réformes par état En cours : 20, Planifiée : 0, Terminée : ${new Intl.NumberFormat('fr-FR').format(1234)}, Suspendue : 0`,
    );
    expect(screen.getByRole('img', { name: /Réformes par nature/ })).toHaveAccessibleName(
      'Réformes par nature Administrative : 12, Structurelle : 10',
    );
    expect(within(byEtat).getByText('Planifiée')).toBeInTheDocument();
  });

  it('shows validation its pending reforms', async () => {
    signInAs(aUser({ roles: [{ id: 1, name: 'validation' }] }));
    fakeApi({ 'GET dash/': shaped(dashboardShape, figures) });
    renderApp('/admin/dashboard');
    expect(await screen.findByText('Réformes en attente de validation')).toBeInTheDocument();
    expect(card('Réformes en attente de validation').getByText('4')).toBeInTheDocument();
    expect(screen.queryByText('Compte Utilisateurs')).not.toBeInTheDocument();
  });

  it('shows the failure titled Tableau de bord', async () => {
    signInAs();
    fakeApi({ 'GET dash/': { status: 500, body: { message: 'Erreur interne du serveur' } } });
    renderApp('/admin/dashboard');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(TITLES.dashboard)).toBeInTheDocument();
    expect(within(alert).getByText('Erreur interne du serveur')).toBeInTheDocument();
  });

  it('shows the three common cards to a role of its own that holds the dashboard right', async () => {
    signInAs(aUser({ roles: [{ id: 9, name: 'observateur' }] }));
    fakeApi({ 'GET dash/': shaped(dashboardShape, { ...figures, total_pending: 0 }) });
    renderApp('/admin/dashboard');
    expect(await screen.findByText('Réformes', { selector: 'p' })).toBeInTheDocument();
    expect(card('Réformes').getByText('31')).toBeInTheDocument();
    expect(card('Réformes institutionnelles').getByText('9')).toBeInTheDocument();
    expect(screen.queryByText(/en attente/)).not.toBeInTheDocument();
    expect(screen.queryByText('Compte Utilisateurs')).not.toBeInTheDocument();
  });

  it('says there is no indicator, without any error, to a role refused the counters (403)', async () => {
    signInAs(aUser({ roles: [{ id: 9, name: 'observateur' }] }));
    fakeApi({
      'GET dash/': { status: 403, body: { message: "Vous n'avez pas les droits nécessaires pour effectuer cette action." } },
    });
    renderApp('/admin/dashboard');
    expect(await screen.findByText('Aucun indicateur pour votre rôle')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Mon compte');
    expect(screen.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/droits nécessaires/)).not.toBeInTheDocument();
    expect(screen.queryByText('Réformes', { selector: 'p' })).not.toBeInTheDocument();
  });
});

const signInWith = (role: string, features: string[]) =>
  storeSignIn({ access_token: 'a', refresh_token: 'r', expire_in: 900, features, user: aUser({ roles: [{ id: 1, name: role }] }) });

describe('dashboard: the portfolio counters (issue 16)', () => {
  const counts = { en_retard: 3, sans_suivi: 1, a_risque: 2, dans_les_temps: 7, non_demarree: 0, terminee: 4 };

  it('shows the count of each status to those who follow reforms, each a link to the filtered overview', async () => {
    signInWith('publication', ['dashboard.list', 'suivi-results.list']);
    fakeApi({
      'GET dash/': shaped(dashboardShape, figures),
      'GET portfolio/counts': { body: { message: 'ok', data: counts } },
    });
    renderApp('/admin/dashboard');

    const counters = await screen.findByRole('group', { name: 'Avancement du portefeuille' });
    const late = await within(counters).findByRole('link', { name: 'En retard : 3' });
    expect(late).toHaveAttribute('href', '/admin/follow-reformes?status=en_retard');
    expect(within(counters).getByRole('link', { name: 'Terminée : 4' })).toHaveAttribute('href', '/admin/follow-reformes?status=terminee');
  });

  it('shows no counters to a role without the follow-up view', async () => {
    signInWith('admin', ['dashboard.list']);
    const fetchMock = fakeApi({ 'GET dash/': shaped(dashboardShape, figures) });
    renderApp('/admin/dashboard');
    expect(await screen.findByText('Réformes', { selector: 'p' })).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Avancement du portefeuille' })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('portfolio'))).toBe(false);
  });
});
