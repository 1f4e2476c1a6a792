import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { REFORME_MESSAGES, TIMELINE_MESSAGES } from '@reformes/domain';
import { createReformeAs, DEMO_ACCOUNTS, signIn, toast } from '../support/app.ts';

const line = (page: Page, label: string) => page.getByRole('row').filter({ has: page.getByText(label, { exact: true }) });

test('the Historique tab shows a changed field with its values before and after, who changed it, and filters by kind', async ({
  page,
  request,
}) => {
  const libref = `Guichet des aides ${Date.now().toString(36).slice(-5)}`;
  const edited = `${libref} (révisé)`;
  await createReformeAs(request, DEMO_ACCOUNTS.saisie.email, libref);
  await signIn(page, DEMO_ACCOUNTS.saisie.email);

  await page.goto('/admin/treatment-reformes');
  await line(page, libref).getByRole('button', { name: 'Modifier' }).click();
  await page.getByRole('textbox', { name: 'Libellé de la réforme' }).fill(edited);
  await page.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(page, REFORME_MESSAGES.updated)).toBeVisible();

  await line(page, edited).getByRole('button', { name: 'Consulter' }).click();
  const sheet = page.getByRole('dialog', { name: 'Fiche de la réforme' });
  await sheet.getByRole('tab', { name: TIMELINE_MESSAGES.tab }).click();
  const history = sheet.getByRole('table', { name: 'Historique de la réforme' });
  // Newest first: the change, then the creation.
  await expect(history.getByRole('row').nth(1)).toContainText(/Modification.*Réforme.*Libellé de la réforme/);
  await expect(history.getByRole('row').nth(1)).toContainText(libref);
  await expect(history.getByRole('row').nth(1)).toContainText(edited);
  await expect(history.getByRole('row').nth(1)).toContainText('saisie · MS');
  await expect(history.getByRole('row').filter({ hasText: 'Création' })).toHaveCount(2);
  await page.screenshot({ path: '/tmp/history-tab.png' });
  // WCAG 2.1 AA on the open tab: nothing serious or critical.
  const axe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(
    axe.violations
      .filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''))
      .map((v) => `${v.id} ${v.nodes.map((n) => n.html.slice(0, 120)).join(' | ')}`),
  ).toEqual([]);
  // The kind filter by keyboard alone: focus, open, choose, and the table follows.
  await sheet.getByRole('combobox', { name: TIMELINE_MESSAGES.kindFilter }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { name: 'Réforme', exact: true })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(sheet.getByRole('combobox', { name: TIMELINE_MESSAGES.kindFilter })).toHaveValue('Réforme');
  await expect(history.getByRole('row').filter({ hasText: 'Circuit de validation' })).toHaveCount(0);
  await expect(history.getByRole('row').filter({ hasText: 'Libellé de la réforme' })).toHaveCount(1);

  await sheet.getByRole('combobox', { name: TIMELINE_MESSAGES.kindFilter }).click();
  await page.getByRole('option', { name: 'Objectif', exact: true }).click();
  await expect(sheet.getByText(TIMELINE_MESSAGES.empty)).toBeVisible();
});
