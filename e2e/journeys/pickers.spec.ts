import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { SUIVI_MESSAGES } from '@reformes/domain';
import { apiSignIn, DEMO_ACCOUNTS, sideMenu, signIn } from '../support/app.ts';

/** The first reform of the demo data (apps/server/src/db/seed/demo.ts, n° 1), of structure MS: the oldest. */
const OLDEST = { libref: 'Dématérialisation des procédures', objectif: 'Objectif 1 de la réforme n° 1' };

interface SuiviPage {
  data: { data: { id: number; libref: string }[]; total: number; last_page: number };
}

/** The oldest reform of `email`'s scope, as the server pages them (most recent first), and how many there are. */
async function oldestInScope(request: APIRequestContext, email: string) {
  const { headers } = await apiSignIn(request, email);
  const read = async (page: number) => {
    const answer = await request.get(`/api/v1/reformes/users/get-suivi-result?per_page=20&page=${page}`, { headers });
    expect(answer.ok(), await answer.text()).toBe(true);
    return ((await answer.json()) as SuiviPage).data;
  };
  const first = await read(1);
  const last = await read(first.last_page);
  return { oldest: last.data.at(-1), total: first.total };
}

const frenchCount = (value: number) => new Intl.NumberFormat('fr-FR').format(value);

/** The line under a picker's choices: "20 sur 30 — précisez la recherche". */
const honestCount = (page: Page, total: number) => page.getByText(`20 sur ${frenchCount(total)} — précisez la recherche`);

test('Données de suivi: saisie finds the oldest reform by typing part of its label, and sees its objectives', async ({ page, request }) => {
  const { oldest } = await oldestInScope(request, DEMO_ACCOUNTS.saisie.email);
  expect(oldest?.libref).toBe(OLDEST.libref);

  await signIn(page, DEMO_ACCOUNTS.saisie.email);
  await sideMenu(page).getByRole('link', { name: 'Données de suivi' }).click();
  await expect(page.getByRole('heading', { name: SUIVI_MESSAGES.entryTitle, level: 1 })).toBeVisible();
  const picker = page.getByRole('combobox', { name: 'Réformes', exact: true });
  await picker.click();
  await expect(page.getByRole('option').first()).toBeVisible();

  // Part of the label, without its accents: the server searches; the phases 2 and 3 match too.
  await picker.fill('materialisation des proc');
  await expect(page.getByRole('option', { name: `${OLDEST.libref} — phase 2`, exact: true })).toBeVisible();
  await page.getByRole('option', { name: OLDEST.libref, exact: true }).click();
  await expect(picker).toHaveValue(OLDEST.libref);

  const objectifs = page.getByRole('combobox', { name: 'Objectifs', exact: true });
  await expect(objectifs).toBeEnabled();
  await objectifs.click();
  await expect(page.getByRole('option', { name: OLDEST.objectif, exact: true })).toBeVisible();
  await page.getByRole('option', { name: OLDEST.objectif, exact: true }).click();
  await page.getByRole('combobox', { name: 'Résultat attendu', exact: true }).click();
  await page.getByRole('option', { name: "Résultat 2 de l'objectif 1", exact: true }).click();
  await expect(page.getByRole('table', { name: "Données de suivi du résultat Résultat 2 de l'objectif 1" })).toBeVisible();
  await page.screenshot({ path: '/tmp/pickers-entry.png', fullPage: true });
});

test('Suivi des réformes: publication pages to the oldest reform, finds it by typing, and keeps it on reload', async ({
  page,
  request,
}) => {
  const { oldest, total } = await oldestInScope(request, DEMO_ACCOUNTS.publication.email);
  expect(oldest?.libref).toBe(OLDEST.libref);
  // Publication sees every structure: more reforms than one page of the picker.
  expect(total).toBeGreaterThan(20);

  await signIn(page, DEMO_ACCOUNTS.publication.email);
  await sideMenu(page).getByRole('link', { name: 'Suivi des réformes' }).click();
  await expect(page).toHaveURL('/admin/follow-reformes');
  const picker = page.getByRole('combobox', { name: 'Réforme', exact: true });
  await picker.click();
  await expect(page.getByRole('option')).toHaveCount(21);
  await expect(page.getByRole('option', { name: OLDEST.libref, exact: true })).toHaveCount(0);
  await expect(honestCount(page, total)).toBeVisible();
  await page.screenshot({ path: '/tmp/pickers-view-first-page.png', fullPage: true });

  // "Voir plus" from the keyboard: up from the top goes round to it.
  await picker.press('ArrowDown');
  await picker.press('ArrowUp');
  await expect(page.getByRole('option', { name: 'Voir plus' })).toHaveAttribute('data-combobox-selected', 'true');
  await picker.press('Enter');
  await expect(page.getByRole('option', { name: OLDEST.libref, exact: true })).toBeVisible();
  await picker.press('Escape');

  await picker.fill('DEMATERIALISATION DES PROCÉDURES');
  await expect(page.getByRole('option', { name: `${OLDEST.libref} — phase 3`, exact: true })).toBeVisible();
  await expect(honestCount(page, total)).toHaveCount(0);
  await page.getByRole('option', { name: OLDEST.libref, exact: true }).click();
  await expect(page).toHaveURL(`/admin/follow-reformes?reforme=${oldest?.id}`);
  await expect(page.getByRole('article', { name: OLDEST.objectif })).toBeVisible();
  await expect(page.getByRole('article', { name: OLDEST.objectif })).toContainText("Résultat 2 de l'objectif 1");
  await page.screenshot({ path: '/tmp/pickers-view.png', fullPage: true });

  // The address alone brings it back: the reform is read by its id, on no page of the picker.
  await page.reload();
  await expect(picker).toHaveValue(OLDEST.libref);
  await expect(page.getByRole('article', { name: OLDEST.objectif })).toBeVisible();
});

test("Objectifs: saisie finds the oldest reform for an objective's Réforme field", async ({ page }) => {
  await signIn(page, DEMO_ACCOUNTS.saisie.email);
  await page.goto('/admin/objectifs');
  await page.getByRole('button', { name: 'Ajouter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enregistrer un objectif' });
  const picker = dialog.getByRole('combobox', { name: 'Réforme' });
  await picker.fill('materialisation des proc');
  await page.getByRole('option', { name: OLDEST.libref, exact: true }).click();
  await expect(picker).toHaveValue(OLDEST.libref);
  await dialog.getByRole('textbox', { name: "Libellé de l'objectif" }).fill('Objectif du parcours des sélecteurs');
  await expect(dialog.getByRole('button', { name: 'Enregistrer' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(dialog).toHaveCount(0);
});
