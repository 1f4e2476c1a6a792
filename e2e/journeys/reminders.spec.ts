import { expect, test } from '@playwright/test';
import { DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

// The e2e server writes its mails to a folder; what each digest holds is tested on the server (reminders.routes.test.ts).
test.describe('Rappels', () => {
  test('the admin sees the schedule and the last run, then sends the reminders now after a confirmation', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.admin.email);
    await sideMenu(page).getByRole('link', { name: 'Rappels' }).click();
    await expect(page).toHaveURL('/admin/reminders');
    await expect(page.getByRole('heading', { name: 'Rappels', level: 1 })).toBeVisible();
    const schedule = page.getByRole('region', { name: 'Programmation' });
    await expect(schedule).toContainText('Chaque jour à 07:00 (heure du serveur).');
    await expect(schedule).toContainText('sans donnée de suivi depuis 30 jours ou plus');

    await page.getByRole('button', { name: 'Envoyer les rappels maintenant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Envoyer les rappels' });
    await expect(dialog).toContainText("n'ont pas encore reçus cette semaine");
    await dialog.getByRole('button', { name: 'Oui, continuer' }).click();

    await expect(toast(page, 'Rappels envoyés :')).toContainText(/Rappels envoyés : \d+ courriels? mis en file d'envoi\./);
    await expect(dialog).toBeHidden();
    const lastRun = page.getByRole('region', { name: 'Dernier envoi' });
    await expect(lastRun).toContainText('à la demande');
    await expect(lastRun).toContainText('Courriels mis en file');
  });

  test('a saisie account turns its digest off in « Mon compte », and does not reach « Rappels »', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.saisie.email);
    await expect(sideMenu(page).getByRole('link', { name: 'Rappels' })).toHaveCount(0);
    await page.goto('/admin/reminders');
    await expect(page.getByRole('alert')).toContainText("Vous n'avez pas les droits nécessaires pour effectuer cette action.");

    await page.goto('/admin/user-account');
    await page.getByRole('tab', { name: 'Rappels' }).click();
    const digest = page.getByRole('switch', { name: /^Recevoir le résumé des réformes à suivre de ma structure/ });
    await expect(digest).toBeChecked();
    await digest.press('Space');
    await expect(digest).not.toBeChecked();
    await page.getByRole('button', { name: 'Enregistrer mes rappels' }).click();
    await expect(toast(page, 'Vos préférences de rappel sont enregistrées.')).toBeVisible();

    await page.reload();
    await page.getByRole('tab', { name: 'Rappels' }).click();
    await expect(page.getByRole('switch', { name: /^Recevoir le résumé des réformes à suivre de ma structure/ })).not.toBeChecked();
  });
});
