import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { createReformeAs, DEMO_ACCOUNTS, signIn } from '../support/app.ts';

// Issue 44, item 3: the lists on a phone. Below 600 px a table's row is a card (its cells one under the other, each
// with its column's label), nothing scrolls sideways, and the row actions are reachable and big enough for a finger.

/** WCAG 2.1 A and AA, as in accessibility.spec.ts. */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const REFORM_LIST = { route: '/admin/list-reformes', title: 'Liste des réformes' };
const SECTORS = { route: '/admin/sectors', title: 'Liste des secteurs' };

/** The row of the table holding `label`. */
const line = (page: Page, label: string) => page.getByRole('row').filter({ has: page.getByText(label, { exact: true }) });
const toolbarButton = (page: Page, name: string) =>
  page.getByRole('toolbar', { name: 'Actions' }).getByRole('button', { name, exact: true });

async function openList(page: Page, { route, title }: { route: string; title: string }) {
  await page.goto(route);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByRole('status').filter({ has: page.getByLabel('Chargement...') })).toHaveCount(0);
}

/** Nothing wider than the screen: the page does not scroll sideways, nor does the table inside its box. */
async function expectNoSidewaysScroll(page: Page, width: number) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
    widest: Math.max(
      0,
      ...Array.from(document.querySelectorAll('main *'))
        .filter((element) => element.checkVisibility())
        .map((element) => element.getBoundingClientRect().right),
    ),
  }));
  expect(widths.page, 'the page scrolls sideways').toBeLessThanOrEqual(width);
  expect(widths.body, 'the page scrolls sideways').toBeLessThanOrEqual(width);
  expect(widths.widest, 'something of the screen ends past its right edge').toBeLessThanOrEqual(width);
}

/** Inside the screen, and at least 44 px high and wide for a finger (WCAG 2.5.5). */
async function expectReachable(target: Locator, width: number) {
  await target.scrollIntoViewIfNeeded();
  await expect(target).toBeInViewport();
  const box = await target.boundingBox();
  expect(box).not.toBeNull();
  if (!box) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width);
  expect(box.height).toBeGreaterThanOrEqual(44);
  expect(box.width).toBeGreaterThanOrEqual(44);
}

async function expectAxeClean(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  const found = results.violations.map(
    (violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
  );
  expect(found).toEqual([]);
}

test.describe('a phone of 390 x 844 (touch)', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('Liste des réformes: cards, no sideways scrolling, the row actions reachable and working, axe clean', async ({ page, request }) => {
    const libref = `Réforme téléphone ${Date.now().toString(36)}`;
    // Recorded by saisie (saisie central names no structure of its own); "Liste des réformes" shows every reform.
    await createReformeAs(request, DEMO_ACCOUNTS.saisie.email, libref);
    await signIn(page, DEMO_ACCOUNTS['saisie central'].email);
    await openList(page, REFORM_LIST);
    await expectNoSidewaysScroll(page, 390);

    await page.getByRole('textbox', { name: 'Rechercher' }).fill(libref);
    const row = line(page, libref);
    await expect(row).toHaveCount(1);
    // A card: the header is hidden, each cell says its column's name.
    await expect(page.getByRole('table', { name: REFORM_LIST.title }).locator('thead')).toBeHidden();
    await expect(row.locator('td[data-label="Libellé"]')).toContainText(libref);
    await expectNoSidewaysScroll(page, 390);
    await page.screenshot({ path: '/tmp/e2e-phone-reformes.png', fullPage: true });

    const view = row.getByRole('button', { name: 'Consulter' });
    await expectReachable(view, 390);
    for (const action of await row.getByRole('button').all()) await expectReachable(action, 390);
    await expectAxeClean(page);

    await view.tap();
    const sheet = page.getByRole('dialog', { name: 'Fiche de la réforme' });
    await expect(sheet).toBeVisible();
    await expect(sheet).toContainText(libref);
    await sheet.getByRole('button', { name: 'Fermer' }).last().tap();
    await expect(sheet).toBeHidden();
  });

  test('Liste des secteurs (admin): cards, no sideways scrolling, select a row then Consulter, axe clean', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.admin.email);
    await openList(page, SECTORS);
    await expectNoSidewaysScroll(page, 390);
    await expect(page.getByRole('table', { name: SECTORS.title }).locator('thead')).toBeHidden();

    const row = page.getByRole('table', { name: SECTORS.title }).getByRole('row').nth(1);
    const label = (await row.locator('td[data-label="Libellé"]').innerText()).replace(/^Libellé\s*/, '').trim();
    expect(label).not.toBe('');
    const search = page.getByRole('search', { name: 'Recherche' });
    const searchBox = await search.boundingBox();
    expect(searchBox?.width, 'the search box takes the whole width').toBeGreaterThan(390 - 2 * 32);
    await expectAxeClean(page);
    await page.screenshot({ path: '/tmp/e2e-phone-sectors.png', fullPage: true });

    await row.tap();
    await expect(row.getByRole('radio')).toBeChecked();
    const view = toolbarButton(page, 'Consulter');
    await expectReachable(view, 390);
    await view.tap();
    const dialog = page.getByRole('dialog', { name: 'Détails des informations' });
    await expect(dialog.getByRole('cell', { name: label })).toBeVisible();
    await dialog.getByRole('button', { name: 'Fermer' }).tap();
    await expect(dialog).toBeHidden();
  });
});

test.describe('a small phone of 360 x 740 (touch)', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });

  test('Liste des réformes does not scroll sideways, its row actions on screen', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS['saisie central'].email);
    await openList(page, REFORM_LIST);
    await expectNoSidewaysScroll(page, 360);
    const first = page.getByRole('table', { name: REFORM_LIST.title }).getByRole('row').nth(1);
    const actions = await first.getByRole('button').all();
    expect(actions.length).toBeGreaterThan(0);
    for (const action of actions) await expectReachable(action, 360);
  });

  test('Liste des secteurs does not scroll sideways', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.admin.email);
    await openList(page, SECTORS);
    await expectNoSidewaysScroll(page, 360);
    await expectReachable(toolbarButton(page, 'Ajouter'), 360);
  });
});
