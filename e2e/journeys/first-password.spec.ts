import { expect, test } from '@playwright/test';
import { apiSignIn, DEMO_ACCOUNTS, readSideMenu, sideMenu, submitLogin, toast, userMenuButton } from '../support/app.ts';
import { outboxSnapshot, waitForMail } from '../support/outbox.ts';

const newcomer = { lastname: 'Petit', firstname: 'Nadia', email: 'nadia.petit@reformes.test' };
const CHOSEN_PASSWORD = 'Coquelicot-Rouge-7';
let createdId: number | undefined;

// The admin screens that create accounts are not built yet: the account is created through the API,
// exactly as that screen will, and removed afterwards so the other journeys keep the five demo accounts.
test.afterEach(async ({ request }) => {
  if (createdId === undefined) return;
  const { headers } = await apiSignIn(request, DEMO_ACCOUNTS.admin.email);
  const answer = await request.delete(`/api/v1/users/${createdId}`, { headers: { ...headers, 'X-Action': 'delete' } });
  expect(answer.ok(), await answer.text()).toBe(true);
  createdId = undefined;
});

test('a new account replaces its temporary password at the first sign-in', async ({ page, request }) => {
  const admin = await apiSignIn(request, DEMO_ACCOUNTS.admin.email);
  const before = await outboxSnapshot();
  const created = await request.post('/api/v1/users', {
    headers: { ...admin.headers, 'X-Action': 'add' },
    data: {
      ...newcomer,
      address: 'Cité administrative',
      phone: '0700000000',
      structure_id: admin.user.structure_id,
      roles: ['saisie'],
      is_signer: false,
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  createdId = ((await created.json()) as { data: { id: number } }).data.id;
  const [, temporary] = await waitForMail(newcomer.email, before, /mot de passe temporaire : (\S+)/);

  await page.goto('/login');
  await submitLogin(page, newcomer.email, temporary);
  await expect(page).toHaveURL('/auth/activate-account');
  await expect(page.getByRole('heading', { name: 'Première connexion' })).toBeVisible();
  await expect(page.getByText('Vous devez changer votre mot de passe temporaire avant de continuer.')).toBeVisible();

  // The back-office stays closed until the password is changed.
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL('/auth/activate-account');

  const password = page.getByRole('textbox', { name: 'Nouveau mot de passe' });
  const confirmation = page.getByRole('textbox', { name: 'Confirmation du mot de passe' });
  const submit = page.getByRole('button', { name: 'Changer le mot de passe' });
  await password.fill('court');
  await confirmation.fill('court');
  await submit.click();
  await expect(page.getByText('Le mot de passe doit contenir au moins 8 caractères')).toHaveCount(2);

  await password.fill(CHOSEN_PASSWORD);
  await confirmation.fill('Autre2026!!');
  await submit.click();
  await expect(page.getByText('Nouveaux mots de passe non identique')).toBeVisible();

  await confirmation.fill(CHOSEN_PASSWORD);
  await submit.click();
  await expect(page).toHaveURL('/login');
  await expect(toast(page, 'Changement de mot passe réussi')).toContainText('Première connexion');
  await expect(toast(page, 'Déconnexion réussie')).toBeVisible();

  // The temporary password is gone; the chosen one opens the back-office.
  await submitLogin(page, newcomer.email, temporary);
  await expect(toast(page, 'Email ou mot de passe incorrect.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Mot de passe' }).fill(CHOSEN_PASSWORD);
  await page.getByRole('button', { name: 'Se connecter' }).click();
  await expect(page).toHaveURL('/admin/dashboard');
  await expect(userMenuButton(page, 'Nadia Petit')).toBeVisible();
  expect((await readSideMenu(sideMenu(page))).map((entry) => entry.name)).toEqual(['Tableau de bord', 'Réformes']);
});
