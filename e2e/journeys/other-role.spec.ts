import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiSignIn, DEMO_ACCOUNTS, readSideMenu, sideMenu, signIn, submitLogin, toast, userMenuButton } from '../support/app.ts';
import { outboxSnapshot, waitForMail } from '../support/outbox.ts';

/** The toast whose message is exactly `text`. */
function toastSaying(page: Page, text: string): Locator {
  return page.getByRole('alert').filter({ has: page.getByText(text, { exact: true }) });
}

function button(page: Page, name: string): Locator {
  return page.getByRole('toolbar', { name: 'Actions' }).getByRole('button', { name, exact: true });
}

const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
const role = `observateur ${stamp}`;
const newcomer = { lastname: `Obs${stamp}`, firstname: 'Inès', email: `obs.${stamp}@reformes.test` };
const CHOSEN_PASSWORD = 'Coquelicot-Rouge-7';

// The account and the role go afterwards, so the other journeys keep the five demo roles and accounts.
test.afterEach(async ({ request }) => {
  const { headers } = await apiSignIn(request, DEMO_ACCOUNTS.admin.email);
  const users = (await (await request.post('/api/v1/users-search', { headers, data: { search: newcomer.email } })).json()) as {
    data: Array<{ id: number; email: string }> | { data: Array<{ id: number; email: string }> };
  };
  const rows = Array.isArray(users.data) ? users.data : users.data.data;
  for (const user of rows.filter((row) => row.email === newcomer.email)) {
    const answer = await request.delete(`/api/v1/users/${user.id}`, { headers: { ...headers, 'X-Action': 'delete' } });
    expect(answer.ok(), await answer.text()).toBe(true);
  }
  const roles = (await (await request.get('/api/v1/roles', { headers })).json()) as { data: Array<{ id: number; name: string }> };
  for (const found of roles.data.filter((row) => row.name === role)) {
    const answer = await request.delete(`/api/v1/roles/${found.id}`, { headers: { ...headers, 'X-Action': 'delete' } });
    expect(answer.ok(), await answer.text()).toBe(true);
  }
});

test('a role of its own: no menu, a dashboard without error, and its own account page', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO_ACCOUNTS.admin.email);

  await test.step('admin creates the role on the Rôles screen', async () => {
    await sideMenu(page).getByRole('link', { name: 'Rôles', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Liste des rôles', level: 1 })).toBeVisible();
    await button(page, 'Ajouter').click();
    const dialog = page.getByRole('dialog', { name: 'Enregistrer un rôle' });
    await dialog.getByRole('textbox', { name: 'Libellé' }).fill(role);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toastSaying(page, 'Enregistrement effectué avec succès').first()).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  const before = await outboxSnapshot();
  await test.step('admin creates an account with that role on the Comptes utilisateurs screen', async () => {
    await sideMenu(page).getByRole('link', { name: 'Comptes utilisateurs' }).click();
    await expect(page.getByRole('heading', { name: 'Liste des utilisateurs', level: 1 })).toBeVisible();
    await button(page, 'Ajouter').click();
    const dialog = page.getByRole('dialog', { name: 'Créer un compte utilisateur' });
    await dialog.getByRole('textbox', { name: 'Nom', exact: true }).fill(newcomer.lastname);
    await dialog.getByRole('textbox', { name: 'Prénoms' }).fill(newcomer.firstname);
    await dialog.getByRole('textbox', { name: 'Adresse' }).fill('Cité administrative');
    await dialog.getByRole('textbox', { name: 'Email' }).fill(newcomer.email);
    await dialog.getByRole('textbox', { name: 'Contact' }).fill('0700000003');
    await dialog.getByRole('combobox', { name: 'Structure' }).click();
    await page.getByRole('option', { name: 'Agence du Numérique (ANUM)' }).click();
    await dialog.getByRole('combobox', { name: 'Rôles' }).click();
    await page.getByRole('option', { name: role, exact: true }).click();
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toastSaying(page, 'Compte créé avec succès : un mot de passe temporaire a été envoyé par email.')).toBeVisible();
    await expect(dialog).toBeHidden();
  });
  const [, temporary] = await waitForMail(newcomer.email, before, /mot de passe temporaire : (\S+)/);

  const context = await browser.newContext();
  const user = await context.newPage();
  const name = `${newcomer.firstname} ${newcomer.lastname}`;

  await test.step('the newcomer replaces the temporary password, then signs in', async () => {
    await user.goto('/login');
    await submitLogin(user, newcomer.email, temporary);
    await expect(user).toHaveURL('/auth/activate-account');
    await user.getByRole('textbox', { name: 'Nouveau mot de passe' }).fill(CHOSEN_PASSWORD);
    await user.getByRole('textbox', { name: 'Confirmation du mot de passe' }).fill(CHOSEN_PASSWORD);
    await user.getByRole('button', { name: 'Changer le mot de passe' }).click();
    await expect(user).toHaveURL('/login');
    await expect(toast(user, 'Changement de mot passe réussi')).toBeVisible();
    await submitLogin(user, newcomer.email, CHOSEN_PASSWORD);
  });

  await test.step('the dashboard opens without any error, and there is no side menu (spec §2.3)', async () => {
    await expect(user).toHaveURL('/admin/dashboard');
    await expect(user.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeVisible();
    await expect(user.getByText('Aucun indicateur pour votre rôle')).toBeVisible();
    await expect(userMenuButton(user, name)).toBeVisible();
    expect(await readSideMenu(sideMenu(user))).toEqual([]);
    await expect(user.getByRole('alert')).toHaveCount(0);
    await user.screenshot({ path: '/tmp/e2e-other-role-dashboard.png' });
  });

  await test.step('"Mon profil" saves', async () => {
    await userMenuButton(user, name).click();
    await user.getByRole('menuitem', { name: 'Mon profil' }).click();
    const dialog = user.getByRole('dialog', { name: 'Mon profil' });
    await dialog.getByRole('textbox', { name: 'Téléphone' }).fill('0700000004');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toast(user, 'Profile mis à jour avec succès')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  await test.step('"Mon compte" opens and saves the information', async () => {
    await userMenuButton(user, name).click();
    await user.getByRole('menuitem', { name: 'Mon compte' }).click();
    await expect(user).toHaveURL('/admin/user-account');
    await expect(user.getByRole('heading', { name: 'Mon compte', level: 1 })).toBeVisible();
    await expect(user.getByText('Information personnelle & mot de passe')).toBeVisible();
    await user.getByRole('button', { name: 'Sauvegarder mes informations' }).click();
    await expect(toast(user, 'Sauvegarde des informations du compte')).toBeVisible();
    await expect(user.getByRole('tab', { name: 'Mot de passe' })).toBeVisible();
    await expect(user.getByRole('tab', { name: 'Signature' })).toHaveCount(0);
    await user.screenshot({ path: '/tmp/e2e-other-role-account.png' });
  });

  await context.close();
});
