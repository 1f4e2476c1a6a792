import { expect, type Page, test } from '@playwright/test';
import { createAccount, deleteAccount, type TestAccount, uniqueStamp } from '../support/accounts.ts';
import { DEMO_ACCOUNTS, signIn, submitLogin, toast, userMenuButton } from '../support/app.ts';

const central = DEMO_ACCOUNTS['saisie central'];
const publication = DEMO_ACCOUNTS.publication;
const PASSWORD = 'Tournesol-Bleu-42';
const NEW_PASSWORD = 'Girafe-Verte-2027';

/** A 160x80 PNG with a drawn line: passes the server's magic-byte check and shows in the preview. */
const SIGNATURE_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAKAAAABQCAIAAAARP+ljAAABwklEQVR42u3bQU7DMBAF0DkEh+CI3D4s2CBR0cQZ22PnfXVVQeqZZ9cJwnHI1gktACyABbAA' +
    'FsACWAADFsACWAALYAEsgAELYAEsgAWwABbAAhiwABbAE/Lx+fXzArwt7e9XtRECTqOtwzxlSLGr7sv3y04+wBfaV3BL/ss5zDh20j35k6WG19s4nqM7ZR2f' +
    '/MR+A4vxpSZW0nC1KcATJ1+Mp81ibr7IMOO2yZc7vJioe6eYm40YYHxn8iUOL4bpvoUfplsZON04BujmbsxZxXc1TtyA3jZwDnCb2f+/0uMerV/5vW9LT7Yi' +
    'pute2q1zl12nRdzjMaG5G1FEt+sd2chF3GmQzd2IgvN35B9s06/ce6hXuxH15++AB7mNy4+H66ZvmdWqi/QvkGPB1H/uqgJ8rJks4IKlBd2UEsp2IOimLMGy' +
    'HQCcUEjlDgTdmwuxeAeC7s2KtgXe9T/LLxVVvwNBt9lsiQ4E3Ta5VZoQl0otexhksPFCTYiT87TyUZ9+wC8rXasJLcDHM1L5mFPyHvzYo5gbfIE5AH7ZeK3x' +
    'A948gAELYAEsgAWwABbAgAWwABbAAlgAC2DAAlgAC2ABLHn5BtOtsrwDYzBwAAAAAElFTkSuQmCC',
  'base64',
);

async function openAccount(page: Page, name: string) {
  await userMenuButton(page, name).click();
  await page.getByRole('menuitem', { name: 'Mon compte' }).click();
  await expect(page).toHaveURL('/admin/user-account');
  await expect(page.getByRole('heading', { name: 'Mon compte', level: 1 })).toBeVisible();
  await expect(page.getByText('Information personnelle & mot de passe')).toBeVisible();
}

test.describe('Mon compte', () => {
  // The password change happens on an account of its own: the demo password cannot be set back (it holds the
  // app's name, which no new password may).
  let account: TestAccount | undefined;
  test.afterEach(async ({ request, page }) => {
    if (account) await deleteAccount(request, account.id, page);
    account = undefined;
  });

  test('changing the password signs the user out; the new password signs in again', async ({ page, request }) => {
    const stamp = uniqueStamp();
    account = await createAccount(
      request,
      { lastname: `Camara${stamp}`, firstname: 'Louis', email: `louis.${stamp}@reformes.test`, role: 'saisie central' },
      PASSWORD,
    );
    await signIn(page, account.email, PASSWORD);
    await openAccount(page, account.name);
    // A new account does not sign: no "Signature" tab.
    await expect(page.getByRole('tab', { name: 'Information personnelle' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Signature' })).toHaveCount(0);

    await page.getByRole('tab', { name: 'Mot de passe' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Mot de passe' });
    const old = panel.getByRole('textbox', { name: 'Ancien mot de passe' });
    const next = panel.getByRole('textbox', { name: 'Nouveau mot de passe' });
    const confirmation = panel.getByRole('textbox', { name: 'Confirmer le mot de passe' });
    const submit = panel.getByRole('button', { name: 'Changer le mot de passe' });
    await expect(submit).toBeDisabled();

    await old.fill(PASSWORD);
    await next.fill('court');
    await expect(panel.getByText('Le mot de passe doit contenir au moins 8 caractères')).toBeVisible();
    await next.fill(NEW_PASSWORD);
    await confirmation.fill('Girafe-Verte-2027?');
    await expect(panel.getByText('Nouveaux mots de passe non identique')).toBeVisible();
    await expect(submit).toBeDisabled();

    // A wrong old password: refused by the server, the session stays.
    await old.fill('Mauvais2026!');
    await confirmation.fill(NEW_PASSWORD);
    await expect(submit).toBeEnabled();
    await submit.click();
    const failure = toast(page, 'Changement de mot de passe échouée');
    await expect(failure).toBeVisible();
    await expect(failure).toContainText("L'ancien mot de passe est incorrect.");
    await expect(failure).toContainText('Mon compte');
    await expect(page).toHaveURL('/admin/user-account');
    await page.screenshot({ path: '/tmp/shots/account-password-error.png', fullPage: true });

    await old.fill(PASSWORD);
    await submit.click();
    await expect(page).toHaveURL('/admin/login');
    const signedOut = toast(page, 'Déconnexion réussie');
    await expect(signedOut).toBeVisible();
    await expect(signedOut).toContainText('Connexion');
    await expect(page.getByRole('heading', { name: 'CONNEXION' })).toBeVisible();
    await page.screenshot({ path: '/tmp/shots/account-signed-out.png', fullPage: true });

    // The old password no longer opens the account; the new one does.
    await submitLogin(page, account.email, PASSWORD);
    await expect(toast(page, 'Email ou mot de passe incorrect.')).toBeVisible();
    await page.getByRole('textbox', { name: 'Mot de passe' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL('/admin/dashboard');
  });

  test('the account email is checked and saved', async ({ page }) => {
    await signIn(page, central.email);
    await openAccount(page, central.name);
    const email = page.getByRole('textbox', { name: 'Email' });
    const save = page.getByRole('button', { name: 'Sauvegarder mes informations' });
    await expect(email).toHaveValue(central.email);

    await email.fill('central@');
    await expect(page.getByText("L'email n'est pas valide")).toBeVisible();
    await expect(save).toBeDisabled();

    await email.fill(central.email);
    await save.click();
    const saved = toast(page, 'Sauvegarde des informations du compte');
    await expect(saved).toBeVisible();
    await expect(saved).toContainText('Mon compte');
  });

  test('a signer uploads a signature and sees it in the preview', async ({ page }) => {
    await signIn(page, publication.email);
    await openAccount(page, publication.name);
    await page.getByRole('tab', { name: 'Signature' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Signature' });
    await expect(panel.getByText('Aucune signature chargée')).toBeVisible();
    const upload = panel.getByRole('button', { name: 'Charger ma signature' });
    await expect(upload).toBeDisabled();

    const chooser = page.waitForEvent('filechooser');
    await panel.getByRole('button', { name: /Charger la signature numérisée/ }).click();
    await (await chooser).setFiles({ name: 'signature.png', mimeType: 'image/png', buffer: SIGNATURE_PNG });
    await expect(panel.getByText('signature.png')).toBeVisible();
    await upload.click();

    await expect(toast(page, 'Signature enregistrée avec succès')).toBeVisible();
    const preview = panel.getByRole('img', { name: 'Ma signature' });
    await expect(preview).toBeVisible();
    await expect(preview).toHaveAttribute('src', /^data:image\/png;base64,/);
    expect(await preview.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(160);
    await page.screenshot({ path: '/tmp/shots/account-signature.png', fullPage: true });

    // On the next visit the stored signature is fetched again (get-file).
    await page.reload();
    await page.getByRole('tab', { name: 'Signature' }).click();
    await expect(page.getByRole('img', { name: 'Ma signature' })).toHaveAttribute('src', /^data:image\/png;base64,/);
  });

  test('the user-settings page is an empty placeholder', async ({ page }) => {
    await signIn(page, publication.email);
    await page.goto('/admin/user-settinngs');
    await expect(page.getByRole('heading', { name: 'Paramètres utilisateur', level: 1 })).toBeVisible();
  });
});
