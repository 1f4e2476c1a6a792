import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { REFORME_MESSAGES, transmitConfirmationOf, WORKFLOW_MESSAGES } from '@reformes/domain';
import { createReformeAs, DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

/** Each role in its own browser, as four people at four desks. */
async function deskOf(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** The figure of a dashboard stat card. */
async function counter(page: Page, label: string): Promise<number> {
  await page.goto('/admin/dashboard');
  const value = page.getByText(label, { exact: true }).locator('xpath=following-sibling::p[1]');
  await expect(value).toBeVisible();
  return Number(((await value.textContent()) ?? '').replace(/\D/g, ''));
}

function line(page: Page, label: string): Locator {
  return page.getByRole('row').filter({ has: page.getByText(label, { exact: true }) });
}

async function openTreatment(page: Page, menu: string) {
  // From the dashboard, as a user starting a new task: the list is read afresh.
  await page.goto('/admin/dashboard');
  await sideMenu(page).getByRole('link', { name: menu }).click();
  await expect(page).toHaveURL('/admin/treatment-reformes');
  await expect(page.getByRole('heading', { name: WORKFLOW_MESSAGES.treatmentTitle })).toBeVisible();
}

/** saisie is asked "Voulez vous transmettre…", validation "Voulez vous envoyer…" (spec §4). */
async function transmit(page: Page, libref: string, role: 'saisie' | 'validation') {
  await line(page, libref).getByRole('button', { name: 'Transmettre' }).click();
  const { title, question } = transmitConfirmationOf(role);
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toContainText(question);
  await dialog.getByRole('button', { name: 'Oui, continuer' }).click();
  await expect(toast(page, WORKFLOW_MESSAGES.transmitted)).toBeVisible();
  await expect(line(page, libref)).toHaveCount(0);
}

test('a reform goes up from saisie to publication, back once for correction, and is published', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const libref = `Carte vitale dématérialisée ${Date.now().toString(36).slice(-5)}`;
  const instruction = 'Préciser la population cible et le calendrier de déploiement.';

  // Set-up through the API: a reform recorded by saisie (stage 1).
  await createReformeAs(request, DEMO_ACCOUNTS.saisie.email, libref);

  const saisie = await deskOf(browser, DEMO_ACCOUNTS.saisie.email);
  const validation = await deskOf(browser, DEMO_ACCOUNTS.validation.email);
  const publication = await deskOf(browser, DEMO_ACCOUNTS.publication.email);

  const pendingTransmission = await counter(saisie, 'Réformes en attente de transmission');
  const pendingValidation = await counter(validation, 'Réformes en attente de validation');
  const pendingPublication = await counter(publication, 'Réformes en attente de publication');

  // saisie transmits.
  await openTreatment(saisie, 'A transmettre');
  await expect(line(saisie, libref)).toBeVisible();
  await expect(line(saisie, libref).getByRole('button', { name: 'Publier' })).toHaveCount(0);
  await expect(line(saisie, libref).getByRole('button', { name: 'Retourner pour correction' })).toHaveCount(0);
  await saisie.screenshot({ path: '/tmp/workflow-saisie.png', fullPage: true });
  await transmit(saisie, libref, 'saisie');
  expect(await counter(saisie, 'Réformes en attente de transmission')).toBe(pendingTransmission - 1);
  expect(await counter(validation, 'Réformes en attente de validation')).toBe(pendingValidation + 1);

  // validation returns it for correction: the instruction is required.
  await openTreatment(validation, 'A valider');
  await line(validation, libref).getByRole('button', { name: 'Retourner pour correction' }).click();
  const back = validation.getByRole('dialog', { name: 'Retourner pour correction' });
  await back.getByRole('button', { name: 'Retourner' }).click();
  await expect(back.getByText(WORKFLOW_MESSAGES.instructionRequired)).toBeVisible();
  await back.getByRole('textbox', { name: 'Instruction' }).fill(instruction);
  await validation.screenshot({ path: '/tmp/workflow-return.png' });
  await back.getByRole('button', { name: 'Retourner' }).click();
  await expect(toast(validation, WORKFLOW_MESSAGES.returned)).toBeVisible();
  await expect(line(validation, libref)).toHaveCount(0);

  // saisie sees the banner with the instruction, and the history, then transmits again.
  await openTreatment(saisie, 'A transmettre');
  await line(saisie, libref).getByRole('button', { name: 'Consulter' }).click();
  const sheet = saisie.getByRole('dialog', { name: 'Fiche de la réforme' });
  await expect(sheet.getByRole('alert').filter({ hasText: WORKFLOW_MESSAGES.returnedBanner })).toContainText(instruction);
  await sheet.getByRole('tab', { name: 'Historique' }).click();
  const history = sheet.getByRole('table', { name: 'Historique de la réforme' });
  // One timeline, newest first (issue 32): the return with its instruction, the transmission, the reform's creation
  // (its row, and its entry into the circuit).
  await expect(history.getByRole('row').nth(1)).toContainText(/Retour pour correction.*Jean-Paul Moreau.*Validation.*Saisie/);
  await expect(history.getByRole('row').nth(1)).toContainText(instruction);
  await expect(history.getByRole('row').nth(2)).toContainText(/Transmission.*Awa Dubois.*Saisie.*Validation/);
  await expect(history.getByRole('row').filter({ hasText: 'Création' })).toHaveCount(2);
  await expect(history.getByRole('row').filter({ hasText: libref })).toContainText('Réforme');
  await saisie.screenshot({ path: '/tmp/workflow-history.png' });
  await sheet.getByRole('button', { name: 'Fermer' }).last().click();
  await transmit(saisie, libref, 'saisie');

  // validation transmits to publication.
  await openTreatment(validation, 'A valider');
  await expect(line(validation, libref).getByRole('button', { name: 'Publier' })).toHaveCount(0);
  await transmit(validation, libref, 'validation');
  expect(await counter(validation, 'Réformes en attente de validation')).toBe(pendingValidation);
  expect(await counter(publication, 'Réformes en attente de publication')).toBe(pendingPublication + 1);

  // publication publishes (right arrow), never transmits.
  await openTreatment(publication, 'A publier');
  await expect(line(publication, libref).getByRole('button', { name: 'Transmettre' })).toHaveCount(0);
  await line(publication, libref).getByRole('button', { name: 'Publier' }).click();
  const confirm = publication.getByRole('dialog', { name: WORKFLOW_MESSAGES.publishTitle });
  await expect(confirm).toContainText(WORKFLOW_MESSAGES.confirmPublish);
  await publication.screenshot({ path: '/tmp/workflow-publish.png' });
  await confirm.getByRole('button', { name: 'Oui, continuer' }).click();
  await expect(toast(publication, WORKFLOW_MESSAGES.published)).toBeVisible();
  await expect(line(publication, libref)).toHaveCount(0);
  expect(await counter(publication, 'Réformes en attente de publication')).toBe(pendingPublication);

  // Listed as published.
  await sideMenu(publication).getByRole('link', { name: 'Liste' }).click();
  await expect(publication.getByRole('heading', { name: REFORME_MESSAGES.listTitle })).toBeVisible();
  await publication.getByRole('textbox', { name: 'Rechercher' }).fill(libref);
  await expect(publication.getByText('1 élément(s)')).toBeVisible();
  await expect(line(publication, libref)).toContainText('Oui');
  await expect(line(publication, libref).getByRole('button', { name: 'Arrêter la publication' })).toBeVisible();
  await publication.screenshot({ path: '/tmp/workflow-published.png', fullPage: true });

  // The creator's records say "Publiée", and the reform no longer changes for saisie.
  await sideMenu(saisie).getByRole('link', { name: 'Mes enregistrements' }).click();
  await expect(line(saisie, libref)).toContainText('Publiée');
  // Spec §6: edit is shown disabled on my records; a published reform is not deleted.
  await expect(line(saisie, libref).getByRole('button', { name: 'Modifier' })).toBeDisabled();
  await expect(line(saisie, libref).getByRole('button', { name: 'Supprimer' })).toHaveCount(0);

  // The dashboard charts read out their figures.
  await publication.goto('/admin/dashboard');
  await expect(publication.getByRole('img', { name: /Réformes par état.*En cours : \d+/ })).toBeVisible();
  await expect(publication.getByRole('img', { name: /Réformes par nature/ })).toBeVisible();
  await publication.screenshot({ path: '/tmp/workflow-dashboard.png', fullPage: true });
});
