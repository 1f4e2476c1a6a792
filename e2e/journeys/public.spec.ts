import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { PUBLIC_MESSAGES } from '@reformes/domain';

interface PublicPage {
  data: { data: { id: number; libref: string; typeref: string }[]; total: number };
}
interface PublicFilterOptions {
  data: { structures: { id: number; designation: string; sigl: string }[] };
}

/** What the public list endpoint says for these filters: the figures the page must show. */
async function publicList(request: APIRequestContext, query: Record<string, string> = {}) {
  const params = new URLSearchParams({ per_page: '10', page: '1', ...query });
  const answer = await request.get(`/api/v1/reformes/public/suivi-result?${params}`);
  expect(answer.ok()).toBe(true);
  return ((await answer.json()) as PublicPage).data;
}

/** The filters are the browser's own selects (issue 34): chosen by keyboard or pointer as any native list. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).selectOption({ label: option });
}

const table = (page: Page) => page.getByRole('table', { name: PUBLIC_MESSAGES.title });
const count = (page: Page, total: number) => page.getByText(`${total} élément(s)`, { exact: true });

test.describe('public page of published reforms', () => {
  test('anyone lists, filters and searches the published reforms, and resets after "Aucun résultat trouvé"', async ({ page, request }) => {
    const all = await publicList(request);
    expect(all.total).toBeGreaterThan(0);

    await page.goto('/accueil');
    await expect(page.getByRole('main').getByRole('heading', { name: PUBLIC_MESSAGES.title, level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: PUBLIC_MESSAGES.signIn })).toHaveAttribute('href', '/login');
    await expect(count(page, all.total)).toBeVisible();
    await expect(table(page).getByRole('row')).toHaveCount(Math.min(10, all.total) + 1);
    await expect(table(page).getByRole('columnheader')).toHaveText(['#', 'Libellé', 'Type', 'Période', 'Date début', 'Date fin', 'État']);
    await expect(table(page).getByRole('link', { name: all.data[0].libref, exact: true })).toBeVisible();
    await page.screenshot({ path: '/tmp/public-list.png', fullPage: true });

    // Structure filter: the options come from the published reforms; the count follows the server.
    const options = ((await (await request.get('/api/v1/reformes/public/filters')).json()) as PublicFilterOptions).data;
    const ms = options.structures.find((structure) => structure.sigl === 'MS');
    expect(ms).toBeDefined();
    if (!ms) return;
    const ofMs = await publicList(request, { structure_id: String(ms.id) });
    await choose(page, 'Structure', `${ms.designation} (${ms.sigl})`);
    await expect(count(page, ofMs.total)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`structure_id=${ms.id}`));
    for (const row of ofMs.data) await expect(table(page).getByRole('link', { name: row.libref, exact: true })).toBeVisible();

    // Type filter on top of it.
    const transversalesOfMs = await publicList(request, { structure_id: String(ms.id), typeref: 'TRANSVERSALE' });
    await choose(page, 'Type de réforme', 'Transversale');
    await expect(count(page, transversalesOfMs.total)).toBeVisible();
    if (transversalesOfMs.total > 0) await expect(table(page).getByRole('cell', { name: 'Sectorielle', exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: PUBLIC_MESSAGES.downloadCsv })).toHaveAttribute(
      'href',
      `/api/v1/reformes/public/export.csv?structure_id=${ms.id}&typeref=TRANSVERSALE`,
    );
    await choose(page, 'Type de réforme', 'Tout');
    await choose(page, 'Structure', 'Toutes');
    await expect(count(page, all.total)).toBeVisible();

    // Text search, on the server.
    const wanted = all.data[0].libref;
    const searched = await publicList(request, { search: wanted });
    await page.getByRole('searchbox', { name: 'Rechercher' }).fill(wanted);
    await expect(count(page, searched.total)).toBeVisible();
    await expect(table(page).getByRole('link', { name: wanted, exact: true })).toBeVisible();

    // Nothing matches: the message and the reset button, which restores the whole list.
    await page.getByRole('searchbox', { name: 'Rechercher' }).fill('aucune réforme ne porte ce nom xyz');
    await expect(page.getByText(PUBLIC_MESSAGES.noMatch, { exact: true })).toBeVisible();
    await expect(count(page, 0)).toBeVisible();
    await page.screenshot({ path: '/tmp/public-no-match.png', fullPage: true });
    await page.getByRole('button', { name: PUBLIC_MESSAGES.reset, exact: true }).click();
    await expect(count(page, all.total)).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Rechercher' })).toHaveValue('');
    await expect(page).toHaveURL('/accueil');
  });

  test('the open data downloads carry the filters, in UTF-8 with French headers', async ({ page, request }) => {
    await page.goto('/accueil?typeref=SECTORIELLE');
    const csvLink = page.getByRole('link', { name: PUBLIC_MESSAGES.downloadCsv });
    await expect(csvLink).toHaveAttribute('href', '/api/v1/reformes/public/export.csv?typeref=SECTORIELLE');
    const jsonLink = page.getByRole('link', { name: PUBLIC_MESSAGES.downloadJson });
    await expect(jsonLink).toHaveAttribute('href', '/api/v1/reformes/public/export.json?typeref=SECTORIELLE');

    const download = page.waitForEvent('download');
    await csvLink.click();
    expect((await download).suggestedFilename()).toBe('reformes-publiees.csv');

    const csv = await (await request.get('/api/v1/reformes/public/export.csv?typeref=SECTORIELLE')).text();
    expect(csv.replace(/^\uFEFF/, '').split('\r\n')[0]).toContain('"Identifiant";"Libellé";"Type"');
    const sectorielles = await publicList(request, { typeref: 'SECTORIELLE' });
    expect(csv.trim().split('\r\n')).toHaveLength(sectorielles.total + 1);
    const json = (await (await request.get('/api/v1/reformes/public/export.json?typeref=SECTORIELLE')).json()) as Record<string, unknown>[];
    expect(json.every((row) => row.Type === 'SECTORIELLE')).toBe(true);
  });

  test('a reform opens on its public page, and "Retour à la liste" comes back to the same filters', async ({ page, request }) => {
    const sectorielles = await publicList(request, { typeref: 'SECTORIELLE' });
    // The demo data publishes sectoral reforms (even-numbered ones at stage 3).
    expect(sectorielles.total).toBeGreaterThan(0);
    const first = sectorielles.data[0];

    await page.goto('/accueil');
    await choose(page, 'Type de réforme', 'Sectorielle');
    await expect(count(page, sectorielles.total)).toBeVisible();
    await table(page).getByRole('link', { name: first.libref, exact: true }).click();
    await expect(page).toHaveURL(`/accueil/reformes/${first.id}`);
    await expect(page.getByRole('heading', { name: first.libref, level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: PUBLIC_MESSAGES.generalInfo })).toContainText('Structure');
    await expect(page.getByRole('region', { name: PUBLIC_MESSAGES.objectives })).toBeVisible();
    await expect(page.getByRole('main')).toBeVisible();

    await page.getByRole('link', { name: PUBLIC_MESSAGES.backToList }).click();
    await expect(page).toHaveURL('/accueil?typeref=SECTORIELLE');
    await expect(count(page, sectorielles.total)).toBeVisible();

    await page.goto('/accueil/reformes/999999');
    await expect(page.getByText(PUBLIC_MESSAGES.notFound)).toBeVisible();
    await page.getByRole('link', { name: PUBLIC_MESSAGES.signIn }).click();
    await expect(page).toHaveURL('/login');
  });
});
