import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { PORTFOLIO_STATUSES, type PortfolioCounts } from '@reformes/domain';
import { apiSignIn, DEMO_ACCOUNTS, sideMenu, signIn } from '../support/app.ts';

test('the dashboard counts the portfolio by status; a counter opens the filtered overview, a row its follow-up', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const api = await apiSignIn(request, DEMO_ACCOUNTS.publication.email);
  const counts = (await (await request.get('/api/v1/portfolio/counts', { headers: api.headers })).json()).data as PortfolioCounts;
  const busiest = PORTFOLIO_STATUSES.reduce((best, entry) => (counts[entry.value] > counts[best.value] ? entry : best));
  expect(counts[busiest.value]).toBeGreaterThan(0);

  await signIn(page, DEMO_ACCOUNTS.publication.email);
  const counters = page.getByRole('group', { name: 'Avancement du portefeuille' });
  for (const entry of PORTFOLIO_STATUSES) {
    await expect(counters.getByRole('link', { name: `${entry.label} : ${counts[entry.value]}`, exact: true })).toBeVisible();
  }
  await counters.getByRole('link', { name: `${busiest.label} : ${counts[busiest.value]}`, exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/admin/follow-reformes\\?status=${busiest.value}$`));
  await expect(page.getByRole('heading', { name: 'Suivi des réformes', level: 1 })).toBeVisible();
  const overview = page.getByRole('region', { name: 'Portefeuille des réformes' });
  await expect(overview.getByRole('button', { name: `${busiest.label} : ${counts[busiest.value]}`, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const total = counts[busiest.value];
  const table = overview.getByRole('table', { name: `${total} réforme${total > 1 ? 's' : ''}, les plus en retard d'abord` });
  await expect(table).toBeVisible();
  const firstRow = table.getByRole('row').nth(1);
  await expect(
    firstRow.getByText(busiest.value === 'sans_suivi' ? /^Sans suivi depuis \d+ jours$/ : busiest.label, { exact: true }),
  ).toBeVisible();

  // The row opens the reform's follow-up below, and the filter stays in the address.
  const name = (await firstRow.getByRole('cell').first().textContent()) ?? '';
  await firstRow.getByRole('button', { name: `Voir le suivi de ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`status=${busiest.value}`));
  await expect(page).toHaveURL(/reforme=\d+/);
  await expect(page.getByRole('combobox', { name: 'Réforme', exact: true })).toHaveValue(name);

  // Keyboard: the status filter is a button reached and pressed with the keyboard.
  const all = overview.getByRole('button', { name: `${busiest.label} : ${counts[busiest.value]}`, exact: true });
  await all.focus();
  await page.keyboard.press('Enter');
  await expect(all).toHaveAttribute('aria-pressed', 'false');
  await expect(page).not.toHaveURL(/status=/);
  await expect(sideMenu(page)).toBeVisible();

  // The overview's exports carry its filters and are real files: a CSV with the French headers, an xlsx.
  await overview.getByRole('button', { name: `${busiest.label} : ${counts[busiest.value]}`, exact: true }).click();
  const csvDownload = page.waitForEvent('download');
  await overview.getByRole('button', { name: 'Exporter en CSV' }).click();
  const csv = await csvDownload;
  expect(csv.suggestedFilename()).toMatch(/^portefeuille-reformes-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await fs.readFile((await csv.path()) as string, 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    '"Réforme";"Structure";"Nature";"Type";"Date début";"Date fin";"État";"Statut";"Avancement (%)";"Résultats validés";"Résultats";"Dernier suivi"',
  );
  expect(lines).toHaveLength(counts[busiest.value] + 1);
  const xlsxDownload = page.waitForEvent('download');
  await overview.getByRole('button', { name: 'Exporter en Excel' }).click();
  const xlsx = await xlsxDownload;
  expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
  expect((await fs.readFile((await xlsx.path()) as string)).subarray(0, 2).toString()).toBe('PK');
});
