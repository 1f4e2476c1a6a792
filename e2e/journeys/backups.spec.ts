import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

test.describe('Liste des sauvegardes', () => {
  test('the admin makes a backup and downloads its files', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.admin.email);
    await sideMenu(page).getByRole('link', { name: 'Sauvegarde' }).click();
    await expect(page).toHaveURL('/admin/backups');
    await expect(page.getByRole('heading', { name: 'Liste des sauvegardes', level: 1 })).toBeVisible();
    const count = page.getByText(/^\d+ élément\(s\)$/);
    await expect(count).toBeVisible();
    const before = Number.parseInt((await count.textContent()) ?? '0', 10);

    const button = page.getByRole('button', { name: 'Effectuer une sauvegarde' });
    await button.click();
    const done = toast(page, 'Base de donnée sauvegardée');
    await expect(done).toBeVisible({ timeout: 30_000 });
    await expect(done).toContainText('Sauvegarde de la base de donnée');
    await expect(count).toHaveText(`${before + 2} élément(s)`);

    const table = page.getByRole('table', { name: 'Liste des sauvegardes' });
    const dump = table.getByRole('row').filter({ hasText: 'Base de données' }).first();
    const archive = table.getByRole('row').filter({ hasText: 'Documents' }).first();
    const today = new Date().toLocaleDateString('fr-FR', { timeZone: 'Europe/Paris' });
    await expect(dump).toContainText(today);
    const dumpName = ((await dump.getByRole('cell').nth(2).textContent()) ?? '').trim();
    const archiveName = ((await archive.getByRole('cell').nth(2).textContent()) ?? '').trim();
    expect(dumpName).toMatch(/^reformes-.+-db\./);
    expect(archiveName).toMatch(/^reformes-.+-docs\.tar\.gz$/);
    await page.screenshot({ path: '/tmp/shots/backups-list.png', fullPage: true });

    // The "Fichier" link downloads the archive with the bearer token, under its own name.
    const archiveDownload = page.waitForEvent('download');
    await archive.getByRole('button', { name: `Télécharger ${archiveName}` }).click();
    const archiveFile = await archiveDownload;
    expect(archiveFile.suggestedFilename()).toBe(archiveName);
    const archivePath = `/tmp/shots/${archiveName}`;
    await archiveFile.saveAs(archivePath);
    // A gzip stream starts with 1f 8b.
    expect((await fs.readFile(archivePath)).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));

    // Selecting a row opens the action bar: download, then close.
    await dump.getByRole('radio').check();
    const bar = page.getByRole('group', { name: 'Sauvegarde sélectionnée' });
    await expect(bar).toBeVisible();
    await expect(bar).toContainText(dumpName);
    await page.screenshot({ path: '/tmp/shots/backups-selected.png', fullPage: true });
    const dumpDownload = page.waitForEvent('download');
    await bar.getByRole('button', { name: 'Télécharger' }).click();
    const dumpFile = await dumpDownload;
    expect(dumpFile.suggestedFilename()).toBe(dumpName);
    expect((await fs.stat(await dumpFile.path())).size).toBeGreaterThan(0);

    await bar.getByRole('button', { name: 'Fermer' }).click();
    await expect(bar).toBeHidden();
    await expect(dump.getByRole('radio')).not.toBeChecked();
  });

  test("the backups are the admin's only", async ({ page, request }) => {
    await signIn(page, DEMO_ACCOUNTS['saisie central'].email);
    await expect(sideMenu(page).getByRole('link', { name: 'Sauvegarde' })).toHaveCount(0);
    await page.goto('/admin/backups');
    await expect(page.getByRole('alert')).toContainText("Vous n'avez pas les droits nécessaires pour effectuer cette action.");
    await expect(page.getByRole('button', { name: 'Effectuer une sauvegarde' })).toHaveCount(0);
    // Without a token the files are not served.
    expect((await request.get('/api/v1/storage/backups/docs/inconnu.tar.gz')).status()).toBe(401);
  });
});
