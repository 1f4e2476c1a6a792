import { expect, type Page, test } from '@playwright/test';
import { MESSAGES, SUIVI_MESSAGES } from '@reformes/domain';
import { apiSignIn, DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

const SUSPENDED = 'Objectif suspendu en cours de route';
const KEPT = 'Objectif maintenu jusqu’au bout';

async function choose(page: Page, label: string, option: string) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  // The reform pickers ask the server for what is typed: the reform may be on no first page.
  await input.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** "Définir les objectifs" of the reform, from the "A transmettre" list. */
async function openObjectifs(page: Page, libref: string) {
  await sideMenu(page).getByRole('link', { name: 'A transmettre' }).click();
  await expect(page).toHaveURL('/admin/treatment-reformes');
  await page
    .getByRole('row')
    .filter({ has: page.getByText(libref, { exact: true }) })
    .getByRole('button', { name: 'Définir les objectifs' })
    .click();
  return page.getByRole('dialog', { name: 'Définir les objectifs' });
}

async function openSuiviView(page: Page, libref: string) {
  await sideMenu(page).getByRole('link', { name: 'Suivi des réformes' }).click();
  await expect(page).toHaveURL(/\/admin\/follow-reformes/);
  await choose(page, 'Réforme', libref);
  await expect(page.getByRole('article', { name: KEPT })).toBeVisible();
}

test('saisie deactivates an objective: it reads "Bloqué" and leaves the follow-up screens until it is activated again', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);

  // Set-up through the API: a reform of saisie's structure, still to transmit, with two objectives and their results.
  const libref = `Réforme du parcours usager ${Date.now()}`;
  const { headers } = await apiSignIn(request, DEMO_ACCOUNTS.saisie.email);
  const created = await request.post('/api/v1/reformes', {
    headers,
    data: {
      libref,
      typeref: 'SECTORIELLE',
      nature_id: 1,
      objectif_glob: 'Simplifier le parcours des usagers',
      popul_cible: 'Usagers',
      couverture_id: 1,
      struct_impl: 'Directions régionales',
      date_debut: '2026-01-01',
      date_fin: '2027-12-31',
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const reformeId = ((await created.json()) as { data: { id: number } }).data.id;
  for (const [libobjectif, libresult] of [
    [SUSPENDED, 'Accueil téléphonique unifié'],
    [KEPT, 'Formulaire unique en ligne'],
  ]) {
    const objectif = await request.post('/api/v1/objectifs', { headers, data: { reforme_id: reformeId, libobjectif } });
    expect(objectif.ok(), await objectif.text()).toBe(true);
    const objectifId = ((await objectif.json()) as { data: { id: number } }).data.id;
    const result = await request.post('/api/v1/resultats', {
      headers,
      data: { objectif_id: objectifId, libresult, indicateur: 'Taux (%)', valeur_cible: '100', valeurref: '0' },
    });
    expect(result.ok(), await result.text()).toBe(true);
  }

  await signIn(page, DEMO_ACCOUNTS.saisie.email);

  // Both objectives are followed at first.
  await openSuiviView(page, libref);
  await expect(page.getByRole('article', { name: SUSPENDED })).toBeVisible();

  // Deactivate one in "Définir les objectifs".
  let dialog = await openObjectifs(page, libref);
  let line = dialog.getByRole('row').filter({ hasText: SUSPENDED });
  await expect(line).toContainText('Actif');
  await expect(line.getByRole('button', { name: 'Activer', exact: true })).toHaveCount(0);
  await line.getByRole('button', { name: 'Désactiver', exact: true }).click();
  await expect(toast(page, MESSAGES.deactivated)).toBeVisible();
  await expect(line).toContainText('Bloqué');
  await expect(line.getByRole('button', { name: 'Activer', exact: true })).toBeVisible();
  await expect(dialog.getByRole('row').filter({ hasText: KEPT })).toContainText('Actif');
  await page.screenshot({ path: '/tmp/objectifs-status-blocked.png', fullPage: true });
  await dialog.getByRole('button', { name: 'Fermer' }).last().click();
  await expect(dialog).toHaveCount(0);

  // Gone from the follow-up view and from the follow-up entry's choices; the other objective stays.
  await openSuiviView(page, libref);
  await expect(page.getByRole('article', { name: SUSPENDED })).toHaveCount(0);
  await expect(page.getByText('Accueil téléphonique unifié')).toHaveCount(0);
  await page.screenshot({ path: '/tmp/objectifs-status-suivi.png', fullPage: true });
  await sideMenu(page).getByRole('link', { name: 'Données de suivi' }).click();
  await expect(page.getByRole('heading', { name: SUIVI_MESSAGES.entryTitle, level: 1 })).toBeVisible();
  await choose(page, 'Réformes', libref);
  await page.getByRole('combobox', { name: 'Objectifs', exact: true }).click();
  await expect(page.getByRole('option', { name: KEPT, exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: SUSPENDED, exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');

  // Activated again, it comes back.
  dialog = await openObjectifs(page, libref);
  line = dialog.getByRole('row').filter({ hasText: SUSPENDED });
  await line.getByRole('button', { name: 'Activer', exact: true }).click();
  // Exact: "Désactivation effectuée avec succès", maybe still shown, contains the activation message.
  await expect(page.getByRole('alert').filter({ has: page.getByText(MESSAGES.activated, { exact: true }) })).toBeVisible();
  await expect(line).toContainText('Actif');
  await expect(line.getByRole('button', { name: 'Désactiver', exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Fermer' }).last().click();
  await openSuiviView(page, libref);
  await expect(page.getByRole('article', { name: SUSPENDED })).toBeVisible();
});
