import { expect, test } from '@playwright/test';
import { createAccount, deleteAccount, type TestAccount, uniqueStamp } from '../support/accounts.ts';
import { DEMO_ACCOUNTS, signIn, submitLogin, toast, userMenuButton } from '../support/app.ts';
import { outboxSnapshot, waitForResetLink } from '../support/outbox.ts';

const PASSWORD = 'Tournesol-Bleu-42';
const NEW_PASSWORD = 'Girafe-Verte-2027';

test.describe('forgotten password', () => {
  // An account of its own: the demo password cannot be set back (it holds the app's name, which no new password may).
  let validation: TestAccount;
  test.beforeEach(async ({ request }) => {
    const stamp = uniqueStamp();
    validation = await createAccount(
      request,
      { lastname: `Moreau${stamp}`, firstname: 'Jean-Paul', email: `jp.${stamp}@reformes.test`, role: 'validation' },
      PASSWORD,
    );
  });
  test.afterEach(async ({ request, page }) => {
    await deleteAccount(request, validation.id, page);
  });

  test('a reset link by mail sets a new password that then signs in', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Mot de passe oublié ?' }).click();
    await expect(page).toHaveURL('/auth/forget-password');
    await expect(page.getByRole('heading', { name: 'Mot de passe oublié ?' })).toBeVisible();

    const before = await outboxSnapshot();
    await page.getByRole('textbox', { name: 'Email' }).fill(validation.email);
    await page.getByRole('button', { name: 'Récupérer' }).click();
    await expect(page.getByText('Email envoyé !')).toBeVisible();
    await expect(page.getByText('Vérifiez votre boîte email pour réinitialiser votre mot de passe.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Récupérer' })).toHaveCount(0);

    const link = await waitForResetLink(validation.email, before);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Saisir un nouveau mot de passe' })).toBeVisible();
    const password = page.getByRole('textbox', { name: 'Nouveau mot de passe' });
    const confirmation = page.getByRole('textbox', { name: 'Confirmation du mot de passe' });
    const submit = page.getByRole('button', { name: 'Changer le mot de passe' });

    await password.fill(NEW_PASSWORD);
    await confirmation.fill('Autre2027!!');
    await submit.click();
    await expect(page.getByText('Nouveaux mots de passe non identique')).toBeVisible();
    await expect(page).toHaveURL(link);

    await confirmation.fill(NEW_PASSWORD);
    await submit.click();
    await expect(page).toHaveURL('/login');
    await expect(toast(page, 'Changement de mot passe réussi')).toBeVisible();

    // The old password no longer opens the account; the new one does.
    await submitLogin(page, validation.email, PASSWORD);
    await expect(toast(page, 'Email ou mot de passe incorrect.')).toBeVisible();
    await expect(page).toHaveURL('/login');
    await page.getByRole('textbox', { name: 'Mot de passe' }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await expect(page).toHaveURL('/admin/dashboard');
    await expect(toast(page, 'Connexion réussie')).toBeVisible();
    await expect(userMenuButton(page, validation.name)).toBeVisible();
  });

  test('a reset link works only once', async ({ page }) => {
    const before = await outboxSnapshot();
    await page.goto('/auth/forget-password');
    await page.getByRole('textbox', { name: 'Email' }).fill(validation.email);
    await page.getByRole('button', { name: 'Récupérer' }).click();
    await expect(page.getByText('Email envoyé !')).toBeVisible();
    const link = await waitForResetLink(validation.email, before);

    for (const attempt of [1, 2]) {
      await page.goto(link);
      await page.getByRole('textbox', { name: 'Nouveau mot de passe' }).fill(NEW_PASSWORD);
      await page.getByRole('textbox', { name: 'Confirmation du mot de passe' }).fill(NEW_PASSWORD);
      await page.getByRole('button', { name: 'Changer le mot de passe' }).click();
      if (attempt === 1) {
        await expect(page).toHaveURL('/login');
        // The sign-in page is a document of its own: the next visit waits until it has loaded, not only the address.
        await expect(page.getByRole('heading', { name: 'CONNEXION', level: 1 })).toBeVisible();
      }
    }
    const failure = page.getByRole('alert').filter({ hasText: 'Changement de mot passe échoué' });
    await expect(failure).toContainText('Ce lien de réinitialisation est invalide ou a expiré.');
    await expect(page).toHaveURL(link);
  });
});

test('the profile modal saves a new phone number', async ({ page }) => {
  const account = DEMO_ACCOUNTS.publication;
  await signIn(page, account.email);

  const openProfile = async () => {
    await userMenuButton(page, account.name).click();
    await page.getByRole('menuitem', { name: 'Mon profil' }).click();
    const dialog = page.getByRole('dialog', { name: 'Mon profil' });
    await expect(dialog).toBeVisible();
    return dialog;
  };
  const saveWithPhone = async (phone: string) => {
    const dialog = await openProfile();
    await dialog.getByRole('textbox', { name: 'Téléphone' }).fill(phone);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    const saved = toast(page, 'Profile mis à jour avec succès');
    await expect(saved).toBeVisible();
    await expect(saved).toContainText('Mise à jour');
    await expect(dialog).toBeHidden();
  };

  const dialog = await openProfile();
  await expect(dialog.getByRole('textbox', { name: 'Nom', exact: true })).toHaveValue('Laurent');
  await expect(dialog.getByRole('textbox', { name: 'Prénoms' })).toHaveValue('Sophie');
  await expect(dialog.getByRole('textbox', { name: 'Email' })).toHaveValue(account.email);
  const phone = dialog.getByRole('textbox', { name: 'Téléphone' });
  const original = await phone.inputValue();
  expect(original).toMatch(/^\d+$/);

  await phone.fill('06 11 22');
  await expect(dialog.getByText('Le téléphone ne doit contenir que des chiffres')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
  await phone.fill('0611223344');
  await expect(dialog.getByRole('button', { name: 'Enregistrer' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(page, 'Profile mis à jour avec succès')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Saved on the server: still there after a reload.
  await page.reload();
  await expect((await openProfile()).getByRole('textbox', { name: 'Téléphone' })).toHaveValue('0611223344');
  await page.getByRole('dialog', { name: 'Mon profil' }).getByRole('button', { name: 'Fermer' }).click();

  await saveWithPhone(original);
});
