import { expect, type Locator, type Page, test } from '@playwright/test';
import { REFORME_MESSAGES } from '@reformes/domain';
import { DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

/** A tiny but real PDF: the server checks the content, not the name. */
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <</Type /Catalog>> endobj\ntrailer <</Root 1 0 R>>\n%%EOF\n');
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

const euro = (amount: number) => new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' }).format(amount);
const stamp = () => Date.now().toString(36).slice(-5);

async function choose(page: Page, scope: Locator | Page, label: string, option: string) {
  await scope.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The line of a table that holds this reform label. */
function line(page: Page, label: string): Locator {
  return page.getByRole('row').filter({ has: page.getByText(label, { exact: true }) });
}

async function fillGeneralInformation(page: Page, libref: string) {
  await page.getByRole('textbox', { name: 'Libellé de la réforme' }).fill(libref);
  await choose(page, page, 'Type de réforme (portée)', 'Sectorielle');
  await choose(page, page, 'Nature', 'Administrative');
  await choose(page, page, 'Couverture', 'Nationale');
  await page.getByRole('textbox', { name: 'Population cible' }).fill('Usagers des centres de santé');
  await page.getByRole('textbox', { name: 'Objectif global' }).fill('Réduire le temps d’attente aux guichets');
  await page.getByRole('textbox', { name: 'Cadre institutionnel' }).fill('Arrêté ministériel 2026-14');
  await choose(page, page, 'Etat de mise en œuvre', 'Planifiée');
  await page.getByRole('textbox', { name: 'Structures impliquées' }).fill('Ministère de la Santé, Agence du Numérique');
}

test.describe('reforms', () => {
  test('saisie creates a reform with a PDF, edits it, and defines an objective with two expected results', async ({ page }) => {
    const libref = `Accueil sans rendez-vous ${stamp()}`;
    await signIn(page, DEMO_ACCOUNTS.saisie.email);
    await sideMenu(page).getByRole('link', { name: 'Nouvelle' }).click();
    await expect(page).toHaveURL('/admin/create-reforme');
    await expect(page.getByRole('group', { name: 'Informations Générales' })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Struture en charge' })).toHaveCount(0);

    // An empty submit shows every required message of spec §5 and saves nothing.
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    for (const message of [
      REFORME_MESSAGES.libref,
      REFORME_MESSAGES.typeref,
      REFORME_MESSAGES.nature_id,
      REFORME_MESSAGES.objectif_glob,
      REFORME_MESSAGES.popul_cible,
      REFORME_MESSAGES.couverture_id,
      REFORME_MESSAGES.struct_impl,
      REFORME_MESSAGES.date_debut,
      REFORME_MESSAGES.date_fin,
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await page.screenshot({ path: '/tmp/reformes-create-empty.png', fullPage: true });

    await fillGeneralInformation(page, libref);
    await expect(page.getByText(REFORME_MESSAGES.libref, { exact: true })).toHaveCount(0);

    // Inverted dates: "Date Incorrect", nothing saved.
    await page.getByRole('textbox', { name: 'Date de début' }).fill('31/12/2026');
    await page.getByRole('textbox', { name: 'Date de fin' }).fill('01/02/2026');
    await page.getByRole('textbox', { name: 'Date de fin' }).press('Tab');
    await expect(page.getByRole('textbox', { name: "Période d'exécution" })).toHaveValue('Du 31/12/2026 au 01/02/2026');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toast(page, REFORME_MESSAGES.dateTitle)).toContainText(REFORME_MESSAGES.dateOrder);
    await expect(page).toHaveURL('/admin/create-reforme');

    await page.getByRole('textbox', { name: 'Date de fin' }).fill('31/12/2027');
    await page.getByRole('textbox', { name: 'Date de fin' }).press('Tab');
    await expect(page.getByRole('textbox', { name: "Période d'exécution" })).toHaveValue('Du 31/12/2026 au 31/12/2027');
    const planned = page.getByRole('textbox', { name: 'Montant prévu (EUR)' });
    await planned.fill('1 234 567,50');
    await planned.press('Tab');
    await expect(planned).toHaveValue(euro(1234567.5));

    // Documentation: a PNG is refused, a named PDF is accepted and listed.
    await page.getByRole('button', { name: 'Ajouter un fichier' }).click();
    const upload = page.getByRole('dialog', { name: REFORME_MESSAGES.fileTitle });
    await upload.getByRole('button', { name: 'Charger' }).click();
    await expect(upload.getByText(REFORME_MESSAGES.fileName)).toBeVisible();
    await upload.getByRole('textbox', { name: 'Nom du fichier' }).fill('Note de cadrage');
    await upload.locator('input[type="file"]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: PNG });
    await expect(upload.getByText(REFORME_MESSAGES.pdfOnly)).toBeVisible();
    await upload.locator('input[type="file"]').setInputFiles({ name: 'cadrage.pdf', mimeType: 'application/pdf', buffer: PDF });
    await upload.getByRole('button', { name: 'Charger' }).click();
    await expect(toast(page, REFORME_MESSAGES.fileUploaded)).toContainText(REFORME_MESSAGES.fileTitle);
    await upload.getByRole('button', { name: 'Fermer' }).last().click();
    await expect(page.getByRole('table', { name: 'Fichiers joints' }).getByText('Note de cadrage')).toBeVisible();
    await page.screenshot({ path: '/tmp/reformes-create-filled.png', fullPage: true });

    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toast(page, REFORME_MESSAGES.created)).toBeVisible();
    await expect(page).toHaveURL('/admin/treatment-reformes');
    await expect(line(page, libref)).toBeVisible();

    // Edit: change the label, and pick the end date from the calendar.
    await line(page, libref).getByRole('button', { name: 'Modifier' }).click();
    await expect(page).toHaveURL(/\/admin\/edit-reforme\/\d+$/);
    await expect(page.getByRole('group', { name: 'Structure et période' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Montant prévu (EUR)' })).toHaveValue(euro(1234567.5));
    const edited = `${libref} (révisée)`;
    await page.getByRole('textbox', { name: 'Libellé de la réforme' }).fill(edited);
    await page.getByRole('textbox', { name: 'Date de fin' }).click();
    const calendar = page
      .locator('[data-dates-dropdown], .mantine-Popover-dropdown')
      .filter({ has: page.locator('table') })
      .first();
    await expect(calendar).toBeVisible();
    await calendar.getByRole('button', { name: /^15 / }).first().click();
    await expect(page.getByRole('textbox', { name: 'Date de fin' })).toHaveValue('15/12/2027');
    await expect(page.getByRole('textbox', { name: "Période d'exécution" })).toHaveValue('Du 31/12/2026 au 15/12/2027');
    await page.screenshot({ path: '/tmp/reformes-edit.png', fullPage: true });
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toast(page, REFORME_MESSAGES.updated)).toBeVisible();
    await expect(page).toHaveURL('/admin/treatment-reformes');

    // One objective, then two expected results (the first submit shows the messages of spec §5).
    await line(page, edited).getByRole('button', { name: 'Définir les objectifs' }).click();
    const objectifs = page.getByRole('dialog', { name: 'Définir les objectifs' });
    await objectifs.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(objectifs.getByText("Le Libellé de l'objectif est requis")).toBeVisible();
    await objectifs.getByRole('textbox', { name: "Libellé de l'objectif" }).fill('Réduire le temps d’attente de moitié');
    await objectifs.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toast(page, REFORME_MESSAGES.objectifCreated)).toBeVisible();
    await expect(objectifs.getByRole('cell', { name: 'Réduire le temps d’attente de moitié', exact: true })).toBeVisible();
    await objectifs.getByRole('button', { name: 'Fermer' }).last().click();

    await line(page, edited).getByRole('button', { name: 'Enregistrer un résultat attendu' }).click();
    const resultat = page.getByRole('dialog', { name: 'Enregistrer un résultat attendu' });
    await resultat.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(resultat.getByText('La valeur référence est requise est requise')).toBeVisible();
    await choose(page, resultat, 'Objectif', 'Réduire le temps d’attente de moitié');
    for (const [libresult, indicateur, cible, reference] of [
      ['Temps d’attente moyen divisé par deux', 'Minutes d’attente', '20', '40'],
      ['Satisfaction des usagers en hausse', 'Taux de satisfaction (%)', '85,5', '60'],
    ]) {
      await resultat.getByRole('textbox', { name: 'Libellé du résultat' }).fill(libresult);
      await resultat.getByRole('textbox', { name: 'Indicateur' }).fill(indicateur);
      await resultat.getByRole('textbox', { name: 'Valeur cible' }).fill(cible);
      await resultat.getByRole('textbox', { name: 'Valeur référence' }).fill(reference);
      await resultat.getByRole('button', { name: 'Enregistrer' }).click();
      await expect(toast(page, REFORME_MESSAGES.resultatCreated).first()).toBeVisible();
      await expect(resultat.getByRole('cell', { name: libresult, exact: true })).toBeVisible();
    }
    await page.screenshot({ path: '/tmp/reformes-resultats.png', fullPage: true });
    await resultat.getByRole('button', { name: 'Fermer' }).last().click();

    // The detail: every field, the objective with its two results, the attachment.
    await line(page, edited).getByRole('button', { name: 'Consulter' }).click();
    const sheet = page.getByRole('dialog', { name: 'Fiche de la réforme' });
    await expect(sheet.getByRole('table', { name: 'Détails de la réforme' })).toContainText('Arrêté ministériel 2026-14');
    await expect(sheet.getByRole('table', { name: 'Détails de la réforme' })).toContainText('31 décembre 2026');
    await expect(sheet.getByRole('table', { name: 'Détails de la réforme' })).toContainText(euro(1234567.5));
    await page.screenshot({ path: '/tmp/reformes-detail.png' });
    await sheet.getByRole('tab', { name: 'Objectifs et résultats attendus' }).click();
    await expect(sheet.getByText('Temps d’attente moyen divisé par deux')).toBeVisible();
    await expect(sheet.getByText('Satisfaction des usagers en hausse')).toBeVisible();
    await sheet.getByRole('tab', { name: 'Fichiers joints' }).click();
    const popupPromise = page.waitForEvent('popup');
    await sheet.getByRole('button', { name: 'voir fichier : Note de cadrage' }).click();
    const popup = await popupPromise;
    await expect.poll(() => popup.url()).toMatch(/^blob:/);
    await popup.close();
    await sheet.getByRole('button', { name: 'Fermer' }).last().click();

    // My records: "En attente", and the printed sheet is the only thing on paper.
    await sideMenu(page).getByRole('link', { name: 'Mes enregistrements' }).click();
    await expect(page.getByRole('heading', { name: REFORME_MESSAGES.myListTitle })).toBeVisible();
    await expect(line(page, edited)).toContainText('En attente');
    await expect(line(page, edited)).toContainText('31/12/2026');
    await line(page, edited).getByRole('button', { name: 'Consulter' }).click();
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed++;
      };
    });
    await page.getByRole('dialog', { name: 'Fiche de la réforme' }).getByRole('button', { name: 'Imprimer' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    await expect(page.locator('.reforme-print-root')).toBeVisible();
    await expect(page.locator('.reforme-print-root')).toContainText(`Fiche de la réforme : ${edited}`);
    await expect(page.locator('.reforme-print-root')).toContainText('Temps d’attente moyen divisé par deux');
    await expect(page.getByRole('dialog', { name: 'Fiche de la réforme' })).toBeHidden();
    await page.screenshot({ path: '/tmp/reformes-print.png', fullPage: true });
    await page.emulateMedia({ media: 'screen' });
  });

  test('saisie central creates a reform for another structure, found by the list filters and the search screen', async ({ page }) => {
    const libref = `Guichet agricole unique ${stamp()}`;
    await signIn(page, DEMO_ACCOUNTS['saisie central'].email);
    await sideMenu(page).getByRole('link', { name: 'Nouvelle' }).click();
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(page.getByText(REFORME_MESSAGES.structure_id, { exact: true })).toBeVisible();

    await fillGeneralInformation(page, libref);
    await page.getByRole('textbox', { name: 'Date de début' }).fill('01/03/2026');
    await page.getByRole('textbox', { name: 'Date de fin' }).fill('28/02/2028');
    const structure = page.getByRole('group', { name: 'Struture en charge' });
    await choose(page, structure, 'Structure', "Ministère de l'Agriculture (MAG)");
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toast(page, REFORME_MESSAGES.created)).toBeVisible();
    await expect(page).toHaveURL('/admin/treatment-reformes');

    await sideMenu(page).getByRole('link', { name: 'Liste' }).click();
    await expect(page.getByRole('heading', { name: REFORME_MESSAGES.listTitle })).toBeVisible();
    await choose(page, page, 'Structure', "Ministère de l'Agriculture (MAG)");
    await expect(line(page, libref)).toBeVisible();
    await expect(line(page, libref)).toContainText('1 mars 2026');
    await expect(line(page, libref)).toContainText('Non');
    await page.screenshot({ path: '/tmp/reformes-list.png', fullPage: true });
    await choose(page, page, 'Structure', 'Ministère de la Santé (MS)');
    await expect(line(page, libref)).toHaveCount(0);

    await page.getByRole('link', { name: 'Recherche avancée' }).click();
    await expect(page).toHaveURL('/admin/search-reformes');
    // The list's own search box stays on screen until the search screen replaces it: type in the new one.
    await expect(page.getByRole('heading', { name: REFORME_MESSAGES.searchTitle })).toBeVisible();
    await page.getByRole('textbox', { name: 'Rechercher' }).fill('agricole unique');
    await expect(line(page, libref)).toBeVisible();
    await expect(line(page, libref)).toContainText('Du 01/03/2026 au 28/02/2028');
    await expect(page.getByText('1 élément(s)')).toBeVisible();
    await page.screenshot({ path: '/tmp/reformes-search.png', fullPage: true });
  });

  test('the objectives screen lists objectives with their reform', async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS['saisie central'].email);
    await page.goto('/admin/objectifs');
    await expect(page.getByRole('heading', { name: 'Liste des objectifs' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Liste des objectifs' });
    await expect(table.getByRole('columnheader', { name: 'Libellé' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Réformes' })).toBeVisible();
    await table.getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Consulter' }).click();
    const details = page.getByRole('dialog', { name: "Détails de l'objectif" });
    await expect(details.getByRole('rowheader', { name: 'Résultats attendus' })).toBeVisible();
    await page.screenshot({ path: '/tmp/reformes-objectifs.png', fullPage: true });
  });
});
