import { expect, type Locator, type Page, test } from '@playwright/test';
import { BACKUP_MESSAGES, REFORME_MESSAGES, WORKFLOW_MESSAGES } from '@reformes/domain';
import { DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

/** The "{n} élément(s)" line above a list. */
const countOf = (page: Page) => page.getByText(/^\d+ élément\(s\)$/);

/**
 * Types `term` in the list's search box: the list then shows only rows matching `matching`, counted;
 * the reset button empties the box and brings the whole list back, from page 1.
 */
async function searchThenReset(page: Page, table: Locator, term: string, matching: RegExp) {
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const count = countOf(page);
  await expect(count).not.toHaveText('0 élément(s)');
  const whole = (await count.textContent()) ?? '';
  const firstRowBefore = (await rows.first().textContent()) ?? '';

  const box = page.getByRole('textbox', { name: 'Rechercher' });
  await box.fill(term);
  await expect(count).not.toHaveText(whole);
  const shown = await rows.allTextContents();
  expect(shown.length).toBeGreaterThan(0);
  for (const text of shown) expect(text).toMatch(matching);
  // Fewer than a page: the count is the rows on screen, and there is nothing to page through.
  expect(shown.length).toBeLessThan(10);
  await expect(count).toHaveText(`${shown.length} élément(s)`);
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
  await page.screenshot({ path: `/tmp/shots/search-${term.replace(/\W+/g, '-')}.png`, fullPage: true });

  await page.getByRole('button', { name: 'Réinitialiser la recherche' }).click();
  await expect(box).toHaveValue('');
  await expect(count).toHaveText(whole);
  await expect(rows.first()).toHaveText(firstRowBefore);
  const pageOne = page.getByRole('button', { name: 'Page 1' });
  if (await pageOne.count()) await expect(pageOne).toHaveAttribute('aria-current', 'page');
}

test.describe('search boxes', () => {
  test('Mes enregistrements: saisie finds its own "Guichet unique" reforms, whatever the case', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.saisie.email);
    await sideMenu(page).getByRole('link', { name: 'Mes enregistrements' }).click();
    await expect(page).toHaveURL('/admin/mylist-reformes');
    const table = page.getByRole('table', { name: REFORME_MESSAGES.myListTitle });
    await searchThenReset(page, table, 'GUICHET UNIQUE', /Guichet unique des entreprises/);
  });

  test('A transmettre: saisie finds "Dématérialisation des procédures" without typing the accents', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.saisie.email);
    await sideMenu(page).getByRole('link', { name: 'A transmettre' }).click();
    await expect(page).toHaveURL('/admin/treatment-reformes');
    const table = page.getByRole('table', { name: WORKFLOW_MESSAGES.treatmentTitle });
    await searchThenReset(page, table, 'dematerialisation', /Dématérialisation/);
  });

  test('A publier: publication finds "Transparence des marchés publics"', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.publication.email);
    await sideMenu(page).getByRole('link', { name: 'A publier' }).click();
    await expect(page).toHaveURL('/admin/treatment-reformes');
    const table = page.getByRole('table', { name: WORKFLOW_MESSAGES.treatmentTitle });
    await searchThenReset(page, table, 'Marches publics', /Transparence des marchés publics/);
  });

  test('Sauvegardes: the admin finds the documents archives among the backups', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.admin.email);
    await sideMenu(page).getByRole('link', { name: 'Sauvegarde' }).click();
    await expect(page).toHaveURL('/admin/backups');
    const table = page.getByRole('table', { name: BACKUP_MESSAGES.title });
    // The count is read once the list is in (it says 0 while loading).
    await expect(table.getByRole('radio').first().or(table.getByText('Aucune sauvegarde'))).toBeVisible();
    const count = countOf(page);
    const before = Number.parseInt((await count.textContent()) ?? '0', 10);
    await page.getByRole('button', { name: 'Effectuer une sauvegarde' }).click();
    await expect(toast(page, BACKUP_MESSAGES.saved)).toBeVisible({ timeout: 30_000 });
    await expect(count).toHaveText(`${before + 2} élément(s)`);
    await searchThenReset(page, table, 'docs', /-docs\.tar\.gz.*Documents/);
  });
});
