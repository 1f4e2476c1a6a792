import { expect, test } from '@playwright/test';
import { DEMO_ACCOUNTS, sideMenu, signIn } from '../support/app.ts';

// The e2e server writes its mails to a folder: none fails, and the journeys cannot reach its embedded database to
// make one fail, so the failed rows, their retry and its audit entry are tested on the server and in the component test.
test.describe('Courriels et tâches', () => {
  test('the admin opens the screen from the menu, sees no failed job, then filters the waiting ones', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.admin.email);
    await sideMenu(page).getByRole('link', { name: 'Courriels et tâches' }).click();
    await expect(page).toHaveURL('/admin/jobs');
    await expect(page.getByRole('heading', { name: 'Courriels et tâches', level: 1 })).toBeVisible();

    const table = page.getByRole('table', { name: 'Courriels et tâches' });
    await expect(table.getByRole('row').first()).toHaveText(/Destinataire\s*Objet\s*Tentatives\s*Dernière erreur\s*Échec le/);
    await expect(table).toContainText('Aucune tâche en échec.');

    await page.getByText('En attente', { exact: true }).click();
    await expect(table.getByRole('row').first()).toHaveText(/Destinataire\s*Objet\s*Tentatives\s*Dernière erreur\s*Prochain essai/);
    // Mails leave within a second here: the waiting list is empty once they are out.
    await expect(table).toContainText('Aucune tâche en attente.');
    await expect(page.getByRole('button', { name: /^Relancer/ })).toHaveCount(0);
  });

  test('a role without the right sees neither the entry nor the screen', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS['saisie central'].email);
    await expect(sideMenu(page).getByRole('link', { name: 'Courriels et tâches' })).toHaveCount(0);
    await page.goto('/admin/jobs');
    await expect(page.getByRole('alert')).toContainText("Vous n'avez pas les droits nécessaires pour effectuer cette action.");
  });
});
