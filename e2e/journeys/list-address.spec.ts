import { expect, type Page, test } from '@playwright/test';
import { DEMO_ACCOUNTS, signIn } from '../support/app.ts';

// A back-office list holds its page and search in the address (issue 41, useListState): a shared link opens the same
// page, back returns to the previous one, and a page past the last one shows the last one.
const pager = (page: Page) => page.getByRole('navigation', { name: 'Pagination' });
const currentPage = (page: Page) => pager(page).locator('[aria-current="page"]');

test.describe('Liste des réformes: page and search in the address', () => {
  test('a shared link, back and forward, and a page past the last one', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.admin.email);

    await page.goto('/admin/list-reformes?page=2');
    await expect(currentPage(page)).toHaveText('2');

    await pager(page).getByRole('button', { name: 'Page 3' }).click();
    await expect(page).toHaveURL(/[?&]page=3\b/);
    await expect(currentPage(page)).toHaveText('3');
    await page.goBack();
    await expect(page).toHaveURL(/[?&]page=2\b/);
    await expect(currentPage(page)).toHaveText('2');
    await page.goForward();
    await expect(currentPage(page)).toHaveText('3');

    await page.goto('/admin/list-reformes?page=999');
    await expect(page).not.toHaveURL(/page=999/);
    const last = await currentPage(page).textContent();
    expect(Number(last)).toBeGreaterThanOrEqual(3);
    await expect(page).toHaveURL(new RegExp(`[?&]page=${last}\\b`));
    await expect(pager(page).getByRole('button', { name: 'Suivant' })).toBeDisabled();

    await page.getByRole('textbox', { name: 'Rechercher' }).fill('Réforme');
    await expect(page).toHaveURL(/[?&]search=R%C3%A9forme|[?&]search=Réforme/);
    await expect(page).not.toHaveURL(/[?&]page=/);
    const shared = page.url();
    await page.goto(shared);
    await expect(page.getByRole('textbox', { name: 'Rechercher' })).toHaveValue('Réforme');
  });
});
