import { expect, type Page, test } from '@playwright/test';
import { createAccount, deleteAccount, type TestAccount, uniqueStamp } from '../support/accounts.ts';
import { signIn, toast, userMenuButton } from '../support/app.ts';
import { outboxSnapshot, waitForMail } from '../support/outbox.ts';

const PASSWORD = 'Tournesol-Bleu-42';
let account: TestAccount | undefined;

test.afterEach(async ({ request, page }) => {
  if (account) await deleteAccount(request, account.id, page);
  account = undefined;
});

async function openAccount(page: Page, name: string) {
  await userMenuButton(page, name).click();
  await page.getByRole('menuitem', { name: 'Mon compte' }).click();
  await expect(page.getByRole('heading', { name: 'Mon compte', level: 1 })).toBeVisible();
}

test('changing the email on "Mon compte" needs the current password, and the old address is told', async ({ page, request }) => {
  const stamp = uniqueStamp();
  account = await createAccount(
    request,
    { lastname: `Sow${stamp}`, firstname: 'Mariam', email: `mariam.${stamp}@reformes.test` },
    PASSWORD,
  );
  const newEmail = `mariam.nouvelle.${stamp}@reformes.test`;
  await signIn(page, account.email, PASSWORD);
  await openAccount(page, account.name);
  const panel = page.getByRole('tabpanel', { name: 'Information personnelle' });
  const email = panel.getByRole('textbox', { name: 'Email' });
  const current = panel.getByRole('textbox', { name: 'Mot de passe actuel' });
  const save = panel.getByRole('button', { name: 'Sauvegarder mes informations' });
  await expect(current).toHaveCount(0);

  // Without the password: the field appears, is required, and nothing can be sent.
  await email.fill(newEmail);
  await expect(current).toBeVisible();
  await current.focus();
  await current.blur();
  await expect(panel.getByText("Le mot de passe actuel est requis pour changer d'email")).toBeVisible();
  await expect(save).toBeDisabled();
  // Nor through the API with the session alone.
  const session = await request.post('/api/v1/api/login', { data: { email: account.email, password: PASSWORD, device: 'web' } });
  const { access_token } = ((await session.json()) as { data: { access_token: string } }).data;
  const stolen = await request.post('/api/v1/api/user-update', {
    headers: { Authorization: `Bearer ${access_token}` },
    data: { email: `pirate.${stamp}@exemple.test` },
  });
  expect(stolen.status()).toBe(422);
  expect(await stolen.json()).toMatchObject({
    errorsList: { current_password: ["Le mot de passe actuel est requis pour changer d'email"] },
  });

  // A wrong password: the server refuses it, under the field and in the toast.
  await current.fill('Pas-le-bon-2026');
  await expect(save).toBeEnabled();
  await save.click();
  const failure = toast(page, 'Sauvegarde des informations échouée');
  await expect(failure).toBeVisible();
  await expect(failure).toContainText('Le mot de passe actuel est incorrect');
  await expect(panel.getByText('Le mot de passe actuel est incorrect')).toBeVisible();
  await page.screenshot({ path: '/tmp/shots/account-security-email-refused.png', fullPage: true });

  // The right password: saved, and a notice goes to the old address.
  const before = await outboxSnapshot();
  await current.fill(PASSWORD);
  await save.click();
  await expect(toast(page, 'Sauvegarde des informations du compte')).toBeVisible();
  await expect(current).toHaveCount(0);
  await expect(email).toHaveValue(newEmail);
  await waitForMail(account.email, before, /a été changée le .+ \(UTC\)[\s\S]*contactez sans attendre un administrateur/);

  // The user menu shows the new address; it signs in, the old one no longer does.
  await userMenuButton(page, account.name).click();
  await expect(page.getByRole('menu').getByText(newEmail)).toBeVisible();
  const signInWith = (address: string) =>
    request.post('/api/v1/api/login', { data: { email: address, password: PASSWORD, device: 'web' } });
  expect((await signInWith(newEmail)).status()).toBe(200);
  expect((await signInWith(account.email)).status()).toBe(401);
});

test('a weak new password is refused on the "Mot de passe" tab, in French', async ({ page, request }) => {
  const stamp = uniqueStamp();
  account = await createAccount(
    request,
    { lastname: `Ba${stamp}`, firstname: 'Ousmane', email: `ousmane.${stamp}@reformes.test` },
    PASSWORD,
  );
  await signIn(page, account.email, PASSWORD);
  await openAccount(page, account.name);
  await page.getByRole('tab', { name: 'Mot de passe' }).click();
  const panel = page.getByRole('tabpanel', { name: 'Mot de passe' });
  const next = panel.getByRole('textbox', { name: 'Nouveau mot de passe' });
  const confirmation = panel.getByRole('textbox', { name: 'Confirmer le mot de passe' });
  const submit = panel.getByRole('button', { name: 'Changer le mot de passe' });
  await panel.getByRole('textbox', { name: 'Ancien mot de passe' }).fill(PASSWORD);

  // The app's name is refused before anything is sent.
  await next.fill('Reformes2027!');
  await confirmation.fill('Reformes2027!');
  await expect(panel.getByText("Le mot de passe ne doit pas contenir le nom de l'application").first()).toBeVisible();
  await expect(submit).toBeDisabled();

  // "password" has 8 characters: the server refuses it as too common.
  await next.fill('password');
  await confirmation.fill('password');
  await expect(submit).toBeEnabled();
  await submit.click();
  const failure = toast(page, 'Changement de mot de passe échouée');
  await expect(failure).toBeVisible();
  await expect(failure).toContainText('Ce mot de passe est trop courant');
  await expect(panel.getByText('Ce mot de passe est trop courant')).toBeVisible();
  await expect(page).toHaveURL('/admin/user-account');
  await page.screenshot({ path: '/tmp/shots/account-security-weak-password.png', fullPage: true });

  // The own name is refused too; the session and the password stay as they were.
  await next.fill(`Ousmane-${stamp}`);
  await confirmation.fill(`Ousmane-${stamp}`);
  await submit.click();
  await expect(panel.getByText('Le mot de passe ne doit pas contenir votre nom ou votre email')).toBeVisible();
  await expect(page).toHaveURL('/admin/user-account');
});
