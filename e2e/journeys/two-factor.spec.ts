import { expect, type Page, test } from '@playwright/test';
import { type RoleName, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { Secret, TOTP } from 'otpauth';
import { createAccount, deleteAccount, uniqueStamp } from '../support/accounts.ts';
import { apiSignIn, DEMO_ACCOUNTS, submitLogin, toast, userMenuButton } from '../support/app.ts';

const PASSWORD = 'Kx7#mQ2!vRzp9Lw-Tq4w';

/** What the authenticator app shows for this key, `steps` 30-second steps from now (the server accepts ±1). */
function codeOf(key: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(key.replaceAll(' ', '')), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/**
 * The enrolment on screen: the key read as a person would type it, the current password and the code typed (a wrong
 * code first: one answer for a wrong password or code), then the recovery codes.
 */
async function enrol(page: Page, password: string): Promise<string> {
  await expect(page.getByRole('img', { name: "QR code d'activation de la double authentification" })).toBeVisible();
  const key = (await page.getByLabel(TWO_FACTOR_MESSAGES.manualKey).textContent()) ?? '';
  expect(key).toMatch(/^[A-Z2-7 ]{32,}$/);
  await page.getByLabel(TWO_FACTOR_MESSAGES.currentPasswordLabel).fill(password);
  await page.getByRole('textbox', { name: TWO_FACTOR_MESSAGES.codeLabel }).fill('000000');
  await page.getByRole('button', { name: 'Activer', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: TWO_FACTOR_MESSAGES.wrongPasswordOrCode })).toBeVisible();
  await page.getByRole('textbox', { name: TWO_FACTOR_MESSAGES.codeLabel }).fill(codeOf(key));
  await page.getByRole('button', { name: 'Activer', exact: true }).click();
  await expect(toast(page, TWO_FACTOR_MESSAGES.enabled)).toBeVisible();
  const codes = page.getByRole('list', { name: 'Codes de secours' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await page.getByRole('button', { name: "J'ai conservé mes codes" }).click();
  return key;
}

test('a user turns on two-factor sign-in in Mon compte, then signs in with the code of the app', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = uniqueStamp();
  const account = await createAccount(
    request,
    { lastname: 'Deux', firstname: 'Facteurs', email: `deux.${stamp}@reformes.test`, role: 'publication' },
    PASSWORD,
  );
  try {
    await page.goto('/login');
    await submitLogin(page, account.email, PASSWORD);
    await expect(page).toHaveURL('/admin/dashboard');
    await userMenuButton(page, account.name).click();
    await page.getByRole('menuitem', { name: 'Mon compte' }).click();
    await page.getByRole('tab', { name: 'Double authentification' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Double authentification' });
    await expect(panel.getByText(TWO_FACTOR_MESSAGES.statusOff)).toBeVisible();
    await panel.getByRole('button', { name: 'Activer la double authentification' }).click();
    const key = await enrol(page, PASSWORD);
    await expect(panel.getByText(TWO_FACTOR_MESSAGES.statusOn)).toBeVisible();
    await expect(panel.getByText('Codes de secours restants : 10')).toBeVisible();

    // Signed out, the password alone no longer opens the session.
    await userMenuButton(page, account.name).click();
    await page.getByRole('menuitem', { name: /Déconnexion/ }).click();
    await expect(page).toHaveURL(/\/login$/);
    await submitLogin(page, account.email, PASSWORD);
    const code = page.getByRole('textbox', { name: TWO_FACTOR_MESSAGES.codeLabel });
    await expect(code).toBeVisible();
    await expect(page.getByText(TWO_FACTOR_MESSAGES.signInStep)).toBeVisible();
    // The enrolment spent this step's code: the app's next one.
    await code.fill(codeOf(key, 1));
    await page.getByRole('button', { name: 'Vérifier' }).click();
    await expect(page).toHaveURL('/admin/dashboard');
    await expect(page.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeVisible();
  } finally {
    await deleteAccount(request, account.id, page);
  }
});

test('a role that demands it leads its user through enrolment before any other screen', async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = uniqueStamp();
  const admin = await apiSignIn(request, DEMO_ACCOUNTS.admin.email);
  const role = await request.post('/api/v1/roles', {
    headers: { ...admin.headers, 'X-Action': 'add' },
    data: { name: `contrôle-2fa-${stamp}`, requires_two_factor: true },
  });
  expect(role.status(), await role.text()).toBe(201);
  const roleName = (await role.json()).data.name as RoleName;
  const account = await createAccount(
    request,
    { lastname: 'Exigé', firstname: 'Contrôle', email: `exige.${stamp}@reformes.test`, role: roleName },
    PASSWORD,
  );
  try {
    await page.goto('/login');
    await submitLogin(page, account.email, PASSWORD);
    await expect(page).toHaveURL('/auth/two-factor-setup');
    await expect(page.getByText(TWO_FACTOR_MESSAGES.required)).toBeVisible();
    // No way around it: the back office sends back here.
    await page.goto('/admin/user-account');
    await expect(page).toHaveURL('/auth/two-factor-setup');
    await enrol(page, PASSWORD);
    await expect(page).toHaveURL('/admin/dashboard');
  } finally {
    await deleteAccount(request, account.id, page);
  }
});
