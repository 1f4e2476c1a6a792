import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { MESSAGES } from '@reformes/domain';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, sideMenu, signIn, submitLogin, toast } from '../support/app.ts';

test.describe("Journal d'audit", () => {
  test('the admin finds a failed then a successful sign-in, filtered by action, and exports them as CSV', async ({ page, browser }) => {
    const { email } = DEMO_ACCOUNTS.validation;

    // At another desk, the password is wrong once, then right.
    const desk = await (await browser.newContext()).newPage();
    await desk.goto('/login');
    await submitLogin(desk, email, 'Pas-le-bon-2026');
    await expect(toast(desk, MESSAGES.invalidCredentials)).toBeVisible();
    await submitLogin(desk, email, DEMO_PASSWORD);
    await expect(desk).toHaveURL('/admin/dashboard');
    await desk.context().close();

    await signIn(page, DEMO_ACCOUNTS.admin.email);
    await sideMenu(page).getByRole('link', { name: "Journal d'audit" }).click();
    await expect(page).toHaveURL('/admin/audit');
    await expect(page.getByRole('heading', { name: "Journal d'audit", level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: "Journal d'audit" });
    await expect(table.getByRole('row').first()).toHaveText(/Date\s*Utilisateur\s*Action\s*Cible\s*Résultat\s*Adresse IP/);

    await page.getByRole('combobox', { name: 'Action' }).click();
    await page.getByRole('option', { name: 'Connexion', exact: true }).click();
    await page.getByRole('textbox', { name: 'Rechercher' }).fill(email);
    const rows = table.getByRole('row').filter({ hasText: email });
    // Newest first: the success, then the failure just before it.
    await expect(rows.first()).toContainText('Succès');
    await expect(rows.nth(1)).toContainText('Échec (mot de passe incorrect)');
    for (const row of [rows.first(), rows.nth(1)]) {
      await expect(row).toContainText('Connexion');
      await expect(row).toContainText('127.0.0.1');
    }
    await expect(table.getByRole('row').filter({ hasText: 'Déconnexion' })).toHaveCount(0);
    // The count and the rows settle together once the debounced search has answered (other journeys may have
    // signed this account in before: the count is read from the rows, not assumed).
    await expect(async () => {
      expect(await page.getByText(/^\d+ élément\(s\)$/).textContent()).toBe(`${await rows.count()} élément(s)`);
    }).toPass();
    await page.screenshot({ path: '/tmp/shots/audit-log.png', fullPage: true });

    // The export carries the same filters, downloaded with the bearer token.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exporter (CSV)' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^journal-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const content = await fs.readFile(await file.path(), 'utf8');
    expect(content.startsWith('\uFEFF"Date (Europe/Paris)";"Utilisateur";"Action";"Cible";"Résultat";"Adresse IP";"Détails"\r\n')).toBe(
      true,
    );
    const lines = content.split('\r\n').slice(1, -1);
    expect(lines.length).toBe(await rows.count());
    for (const line of lines) expect(line).toMatch(new RegExp(`^"\\d{2}/\\d{2}/\\d{4} \\d{2}:\\d{2}:\\d{2}";"${email}";"Connexion";`));
    expect(lines[0]).toContain(';"Connexion";"";"Succès";"127.0.0.1";');
    expect(lines[1]).toContain(';"Connexion";"";"Échec (mot de passe incorrect)";"127.0.0.1";');
    expect(content).not.toContain(DEMO_PASSWORD);
    expect(content).not.toContain('Pas-le-bon-2026');
  });

  test("the journal is the admin's only", async ({ page, request }) => {
    await signIn(page, DEMO_ACCOUNTS['saisie central'].email);
    await expect(sideMenu(page).getByRole('link', { name: "Journal d'audit" })).toHaveCount(0);
    await page.goto('/admin/audit');
    await expect(page.getByRole('alert')).toContainText(MESSAGES.forbidden);
    await expect(page.getByRole('button', { name: 'Exporter (CSV)' })).toHaveCount(0);
    expect((await request.get('/api/v1/audit-logs/export.csv')).status()).toBe(401);
  });
});
