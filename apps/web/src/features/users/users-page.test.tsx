import { DIRECTORY_MESSAGES, MESSAGES, TITLES, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { storeSignIn } from '../../session/session.ts';
import { fakeApi } from '../../test/fake-api.ts';
import { aUser, renderApp } from '../../test/render-app.tsx';

const RIGHTS = ['list', 'show', 'add', 'edit', 'delete', 'status'].map((action) => `users.${action}`);

const awa = aUser();
const blocked = aUser({
  id: 8,
  name: 'Jean Ndiaye',
  lastname: 'Ndiaye',
  firstname: 'Jean',
  email: 'jean@reformes.test',
  roles: [
    { id: 3, name: 'saisie' },
    { id: 4, name: 'validation' },
  ],
  is_active: false,
  two_factor: { enabled: true, required: false },
});

const page = { message: 'ok', isPaginate: true, data: { data: [awa, blocked], current_page: 1, per_page: 10, total: 2, last_page: 1 } };
const structures = {
  message: 'ok',
  data: [
    { id: 1, designation: 'Direction du budget', sigl: 'DB', is_active: true },
    { id: 2, designation: 'Direction des impôts', sigl: 'DGI', is_active: true },
    { id: 3, designation: 'Ancienne direction', sigl: 'AD', is_active: false },
  ],
};
const roles = { message: 'ok', data: ['admin', 'saisie', 'validation'].map((name, index) => ({ id: index + 1, name, is_active: true })) };

async function openUsers(answers: Parameters<typeof fakeApi>[0] = {}) {
  storeSignIn({ access_token: 'a', refresh_token: 'r', expire_in: 900, features: RIGHTS, user: awa });
  const fetchMock = fakeApi({
    'GET users': { body: page },
    'GET structures': { body: structures },
    'GET roles': { body: roles },
    ...answers,
  });
  const user = userEvent.setup();
  renderApp('/admin/users');
  // The page is loaded lazily, the first time slowly.
  await screen.findByRole('heading', { name: 'Liste des utilisateurs' }, { timeout: 5000 });
  return { user, fetchMock };
}

function bodyOf(fetchMock: ReturnType<typeof fakeApi>, method: string, path: string) {
  const call = fetchMock.mock.calls.find(([input, init]) => init?.method === method && String(input).endsWith(path));
  return call ? JSON.parse(String(call[1]?.body)) : undefined;
}

// Generous timeouts: the page is lazily loaded and the form tests type a lot.
describe('users list (spec §2.8)', { timeout: 20_000 }, () => {
  it('lists identity, email, roles and status', async () => {
    await openUsers();
    const row = (await screen.findByRole('radio', { name: 'Jean Ndiaye' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('jean@reformes.test')).toBeInTheDocument();
    expect(within(row).getByText('saisie, validation')).toBeInTheDocument();
    expect(within(row).getByText('Bloqué')).toBeInTheDocument();
    expect(screen.getByText('2 élément(s)')).toBeInTheDocument();
  });

  it('creates an account with its structure, several roles and the signer flag', async () => {
    const { user, fetchMock } = await openUsers({ 'POST users': { status: 201, body: { message: MESSAGES.userCreated, data: awa } } });
    await screen.findByRole('radio', { name: 'Awa Diallo' });
    await user.click(screen.getByRole('button', { name: 'Ajouter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Créer un compte utilisateur' });
    const submit = within(dialog).getByRole('button', { name: 'Enregistrer' });

    await user.type(within(dialog).getByLabelText(/^Nom/), 'Sow');
    await user.type(within(dialog).getByLabelText(/^Prénoms/), 'Fatou');
    await user.type(within(dialog).getByLabelText(/^Adresse/), 'Thiès');
    await user.type(within(dialog).getByLabelText(/^Email/), 'fatou@reformes.test');
    await user.type(within(dialog).getByLabelText(/^Contact/), '77 12');
    await user.tab();
    expect(await within(dialog).findByText(MESSAGES.phoneDigits)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Contact/));
    await user.type(within(dialog).getByLabelText(/^Contact/), '771234567');

    await user.click(within(dialog).getByLabelText(/^Structure/, { selector: 'input' }));
    expect(screen.queryByRole('option', { name: 'Ancienne direction (AD)' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Direction des impôts (DGI)' }));
    expect(submit).toBeDisabled();

    await user.click(within(dialog).getByLabelText(/^Rôles/, { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'saisie' }));
    await user.click(await screen.findByRole('option', { name: 'validation' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Signataire' }));

    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByText(MESSAGES.userCreated)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST', '/users')).toEqual({
      lastname: 'Sow',
      firstname: 'Fatou',
      address: 'Thiès',
      email: 'fatou@reformes.test',
      phone: '771234567',
      structure_id: 2,
      roles: ['saisie', 'validation'],
      is_signer: true,
    });
  });

  it('shows a refused edit titled "Gestion des utilisateurs"', async () => {
    const { user } = await openUsers({ 'PUT users/8': { status: 409, body: { message: MESSAGES.emailTaken } } });
    await user.click(await screen.findByRole('radio', { name: 'Jean Ndiaye' }));
    await user.click(screen.getByRole('button', { name: 'Éditer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Modifier un utilisateur' });
    expect(within(dialog).getByLabelText(/^Email/)).toHaveValue('jean@reformes.test');
    const submit = within(dialog).getByRole('button', { name: 'Enregistrer' });
    await waitFor(() => expect(submit).toBeEnabled());
    await user.click(submit);
    expect(await screen.findByText(MESSAGES.emailTaken)).toBeInTheDocument();
    expect(screen.getByText(TITLES.users)).toBeInTheDocument();
  });

  it('shows the details with the first role', async () => {
    const { user } = await openUsers();
    await user.click(await screen.findByRole('radio', { name: 'Jean Ndiaye' }));
    await user.click(screen.getByRole('button', { name: 'Consulter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Détails des informations' });
    expect(
      within(dialog)
        .getAllByRole('rowheader')
        .map((cell) => cell.textContent),
    ).toEqual(['Nom', 'Prénoms', 'Email', 'Contact', 'Rôle', 'Annuaire']);
    expect(within(dialog).getByRole('cell', { name: 'saisie' })).toBeInTheDocument();
    expect(within(dialog).getByText(DIRECTORY_MESSAGES.notLinked)).toBeInTheDocument();
  });

  it("shows a user's directory link and removes it after a confirmation (issue 42)", async () => {
    const linked = {
      ...blocked,
      directory_link: { issuer: 'https://annuaire.gouv.test', subject: 'jean-n', linked_at: '2026-11-20T09:30:00.000Z' },
    };
    const { user, fetchMock } = await openUsers({
      'GET users': { body: { ...page, data: { ...page.data, data: [awa, linked] } } },
      'DELETE users/8/directory-link': { body: { message: DIRECTORY_MESSAGES.unlinked } },
    });
    await user.click(await screen.findByRole('radio', { name: 'Jean Ndiaye' }));
    await user.click(screen.getByRole('button', { name: 'Consulter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Détails des informations' });
    expect(within(dialog).getByText(/jean-n/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: DIRECTORY_MESSAGES.adminUnlinkButton }));
    const confirm = await screen.findByRole('dialog', { name: DIRECTORY_MESSAGES.adminUnlinkButton });
    await user.click(within(confirm).getByRole('button', { name: 'Oui, continuer' }));
    await waitFor(() => expect(within(dialog).getByText(DIRECTORY_MESSAGES.notLinked)).toBeInTheDocument());
    expect(fetchMock.calls.some((call) => call.method === 'DELETE' && call.path === 'users/8/directory-link')).toBe(true);
  });

  it('resets the second factor of an account that has one, after a confirmation (issue 18)', async () => {
    const { user, fetchMock } = await openUsers({ 'POST users/8/two-factor-reset': { body: { message: TWO_FACTOR_MESSAGES.reset } } });
    await user.click(await screen.findByRole('radio', { name: 'Awa Diallo' }));
    await user.click(screen.getByRole('button', { name: 'Réinitialiser la double authentification' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.notEnabled)).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Jean Ndiaye' }));
    await user.click(screen.getByRole('button', { name: 'Réinitialiser la double authentification' }));
    const dialog = await screen.findByRole('dialog', { name: 'Réinitialiser la double authentification' });
    expect(dialog).toHaveTextContent('jean@reformes.test');
    await user.click(within(dialog).getByRole('button', { name: 'Oui, continuer' }));
    expect(await screen.findByText(TWO_FACTOR_MESSAGES.reset)).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([input, init]) => init?.method === 'POST' && String(input).endsWith('/users/8/two-factor-reset')),
    ).toBe(true);
  });

  it('resets a password: at least 8 characters, both equal', async () => {
    const { user, fetchMock } = await openUsers({ 'POST reset-password': { body: { message: MESSAGES.passwordReset } } });
    await user.click(screen.getByRole('button', { name: 'Réinitialiser le mot de passe' }));
    expect(await screen.findByText(MESSAGES.noSelection)).toBeInTheDocument();

    await user.click(await screen.findByRole('radio', { name: 'Jean Ndiaye' }));
    await user.click(screen.getByRole('button', { name: 'Réinitialiser le mot de passe' }));
    const dialog = await screen.findByRole('dialog', { name: 'Réinitialiser le mot de passe' });
    expect(within(dialog).getByLabelText(/^Email/)).toHaveValue('jean@reformes.test');
    await user.type(within(dialog).getByLabelText(/^Mot de passe/), 'court');
    await user.tab();
    expect(await within(dialog).findByText(MESSAGES.passwordMin)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Mot de passe/), '-assez-long');
    await user.type(within(dialog).getByLabelText(/^Confirmation/), 'autre-chose');
    await user.tab();
    expect(await within(dialog).findByText(MESSAGES.passwordsDiffer)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText(/^Confirmation/));
    await user.type(within(dialog).getByLabelText(/^Confirmation/), 'court-assez-long');
    await user.click(within(dialog).getByRole('button', { name: 'Réinitialiser' }));
    expect(await screen.findByText(MESSAGES.passwordReset)).toBeInTheDocument();
    expect(bodyOf(fetchMock, 'POST', '/reset-password')).toEqual({
      id: 8,
      email: 'jean@reformes.test',
      password: 'court-assez-long',
      password_confirmation: 'court-assez-long',
    });
  });
});
