import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO_ACCOUNTS, sideMenu, signIn, submitLogin, toast } from '../support/app.ts';

/** The toast whose message is exactly `text` ("Activation..." is also part of "Désactivation..."). */
function toastSaying(page: Page, text: string): Locator {
  return page.getByRole('alert').filter({ has: page.getByText(text, { exact: true }) });
}

function button(page: Page, name: string): Locator {
  return page.getByRole('toolbar', { name: 'Actions' }).getByRole('button', { name, exact: true });
}

function rowOf(page: Page, identity: string): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('radio', { name: identity, exact: true }) });
}

async function select(page: Page, identity: string): Promise<void> {
  await page.getByRole('radio', { name: identity, exact: true }).check();
}

test('Comptes utilisateurs: add, find, edit, deactivate, activate, reset the password, delete', async ({ page, browser }) => {
  // A long journey with two more sign-ins; it shares the machine with the other journeys.
  test.setTimeout(120_000);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const lastname = `Essai${stamp}`;
  const email = `e2e.${stamp}@reformes.test`;
  const identity = `Fatou ${lastname}`;
  const renamed = `Fatima ${lastname}`;
  const password = 'Provisoire-2026';

  await signIn(page, DEMO_ACCOUNTS.admin.email);

  await test.step('open the list from the side menu', async () => {
    await sideMenu(page).getByRole('link', { name: 'Comptes utilisateurs' }).click();
    await expect(page).toHaveURL('/admin/users');
    await expect(page.getByRole('heading', { name: 'Liste des utilisateurs', level: 1 })).toBeVisible();
    for (const column of ['Identité', 'Email', 'Rôles', 'Statut']) {
      await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await button(page, 'Éditer').click();
    await expect(toastSaying(page, 'Aucun élément selectionné')).toBeVisible();
  });

  await test.step('add: a temporary password is mailed', async () => {
    await button(page, 'Ajouter').click();
    const dialog = page.getByRole('dialog', { name: 'Créer un compte utilisateur' });
    const submit = dialog.getByRole('button', { name: 'Enregistrer' });
    await expect(submit).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Nom', exact: true }).fill(lastname);
    await dialog.getByRole('textbox', { name: 'Prénoms' }).fill('Fatou');
    await dialog.getByRole('textbox', { name: 'Adresse' }).fill('8 rue des Essais');
    await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
    await dialog.getByRole('textbox', { name: 'Contact' }).fill('06 01');
    await dialog.getByRole('textbox', { name: 'Adresse' }).click();
    await expect(dialog.getByText('Le téléphone ne doit contenir que des chiffres')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Contact' }).fill('0601020304');
    await dialog.getByRole('combobox', { name: 'Structure' }).click();
    await page.getByRole('option', { name: 'Agence du Numérique (ANUM)' }).click();
    await dialog.getByRole('combobox', { name: 'Rôles' }).click();
    await page.getByRole('option', { name: 'saisie', exact: true }).click();
    await dialog.getByRole('checkbox', { name: 'Signataire' }).check();
    await page.screenshot({ path: '/tmp/e2e-user-form.png' });
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(toastSaying(page, 'Compte créé avec succès : un mot de passe temporaire a été envoyé par email.')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  await test.step('find', async () => {
    await page.getByRole('textbox', { name: 'Rechercher' }).fill(stamp);
    await expect(rowOf(page, identity)).toBeVisible();
    await expect(page.getByText('1 élément(s)')).toBeVisible();
    await expect(rowOf(page, identity)).toContainText(email);
    await expect(rowOf(page, identity)).toContainText('saisie');
    await expect(rowOf(page, identity)).toContainText('Actif');
  });

  await test.step('edit: new first name and a second role', async () => {
    await select(page, identity);
    await button(page, 'Éditer').click();
    const dialog = page.getByRole('dialog', { name: 'Modifier un utilisateur' });
    await expect(dialog.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    await expect(dialog.getByRole('checkbox', { name: 'Signataire' })).toBeChecked();
    await dialog.getByRole('textbox', { name: 'Prénoms' }).fill('Fatima');
    await dialog.getByRole('combobox', { name: 'Rôles' }).click();
    await page.getByRole('option', { name: 'validation', exact: true }).click();
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toastSaying(page, 'Modification effectuée avec succès')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(rowOf(page, renamed)).toContainText('saisie, validation');
    await page.screenshot({ path: '/tmp/e2e-users-list.png' });
  });

  await test.step('reset the password', async () => {
    await select(page, renamed);
    await button(page, 'Réinitialiser le mot de passe').click();
    const dialog = page.getByRole('dialog', { name: 'Réinitialiser le mot de passe' });
    await expect(dialog.getByRole('textbox', { name: 'Email' })).toHaveValue(email);
    await dialog.getByRole('textbox', { name: 'Mot de passe', exact: true }).fill(password);
    await dialog.getByRole('textbox', { name: 'Confirmation du mot de passe', exact: true }).fill(`${password}x`);
    await dialog.getByRole('textbox', { name: 'Email' }).click();
    await expect(dialog.getByText('Nouveaux mots de passe non identique')).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Réinitialiser' })).toBeDisabled();
    await dialog.getByRole('textbox', { name: 'Confirmation du mot de passe', exact: true }).fill(password);
    await dialog.getByRole('button', { name: 'Réinitialiser' }).click();
    await expect(toastSaying(page, 'Mot de passe réinitialisé avec succès')).toBeVisible();
    await expect(dialog).toBeHidden();
  });

  await test.step('deactivate: the account can no longer sign in', async () => {
    await select(page, renamed);
    await expect(button(page, 'Activer')).toBeHidden();
    await button(page, 'Désactiver').click();
    await expect(toastSaying(page, 'Désactivation effectuée avec succès')).toBeVisible();
    await expect(rowOf(page, renamed)).toContainText('Bloqué');
    await expect(page.getByRole('radio', { name: renamed, exact: true })).not.toBeChecked();

    const context = await browser.newContext();
    const other = await context.newPage();
    await other.goto('/login');
    await submitLogin(other, email, password);
    await expect(toast(other, "Votre compte est bloqué. Contactez l'administrateur.")).toBeVisible();
    await expect(other).toHaveURL('/login');
    await context.close();
  });

  await test.step('activate: the account signs in again (with its temporary password)', async () => {
    await select(page, renamed);
    await expect(button(page, 'Désactiver')).toBeHidden();
    await button(page, 'Activer').click();
    await expect(toastSaying(page, 'Activation effectuée avec succès')).toBeVisible();
    await expect(rowOf(page, renamed)).toContainText('Actif');

    const context = await browser.newContext();
    const other = await context.newPage();
    await other.goto('/login');
    await submitLogin(other, email, password);
    await expect(other).toHaveURL('/auth/activate-account');
    await context.close();
  });

  await test.step('view the details', async () => {
    await select(page, renamed);
    await button(page, 'Consulter').click();
    const dialog = page.getByRole('dialog', { name: 'Détails des informations' });
    for (const [label, value] of [
      ['Nom', lastname],
      ['Prénoms', 'Fatima'],
      ['Email', email],
      ['Contact', '0601020304'],
      ['Rôle', 'saisie'],
    ]) {
      await expect(dialog.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })).toContainText(value);
    }
    await dialog.getByRole('button', { name: 'Fermer' }).click();
    await expect(dialog).toBeHidden();
  });

  await test.step('delete', async () => {
    await select(page, renamed);
    await button(page, 'Supprimer').click();
    const dialog = page.getByRole('dialog', { name: 'Suppression' });
    await expect(dialog).toContainText('Voulez vous vraiment retirer cet élément?');
    await dialog.getByRole('button', { name: 'Oui, continuer' }).click();
    await expect(toastSaying(page, 'Suppression effectuée avec succès')).toBeVisible();
    await expect(page.getByText('0 élément(s)')).toBeVisible();
  });
});
