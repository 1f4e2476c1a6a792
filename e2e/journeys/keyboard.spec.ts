import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { SUIVI_MESSAGES, transmitConfirmationOf, WORKFLOW_MESSAGES } from '@reformes/domain';
import { apiSignIn, createReformeAs, DEMO_ACCOUNTS, signIn, toast } from '../support/app.ts';

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has the focus, as a keyboard user does, and checks that
 * the focus is visible there (`:focus-visible` with an outline or a box shadow; a text field by its border).
 */
async function tabTo(page: Page, target: Locator, { backwards = false, max = 150 } = {}) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < max; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) {
      const focus = await target.evaluate((element) => {
        const style = getComputedStyle(element);
        // A text field shows its focus by its border (Mantine) and its caret; everything else by a ring.
        const isField = element.matches('input, textarea');
        return {
          visible: element.matches(':focus-visible'),
          drawn: isField || (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none',
        };
      });
      expect(focus, 'the focus is visible').toEqual({ visible: true, drawn: true });
      return;
    }
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`not reached with the keyboard in ${max} presses: ${target}`);
}

async function deskOf(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  return page;
}

/** The treatment list from the side menu, then the reform found with the search field: keys only. */
async function openWaiting(page: Page, menu: string, libref: string): Promise<Locator> {
  await tabTo(page, page.getByRole('navigation').getByRole('link', { name: menu }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: WORKFLOW_MESSAGES.treatmentTitle })).toBeVisible();
  await tabTo(page, page.getByRole('textbox', { name: 'Rechercher' }));
  await page.keyboard.type(libref);
  const row = page.getByRole('row').filter({ has: page.getByText(libref, { exact: true }) });
  await expect(row).toHaveCount(1);
  return row;
}

async function confirmWithKeys(page: Page, dialogName: string, button = 'Oui, continuer') {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: button }));
  await page.keyboard.press('Enter');
}

test('the workflow with the keyboard only: transmit, return with an instruction, transmit, publish', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const libref = `Accueil au clavier ${Date.now().toString(36).slice(-5)}`;
  await createReformeAs(request, DEMO_ACCOUNTS.saisie.email, libref, {
    typeref: 'SECTORIELLE',
    objectif_glob: 'Accueillir les usagers sans rendez-vous',
    popul_cible: 'Usagers',
  });

  const saisie = await deskOf(browser, DEMO_ACCOUNTS.saisie.email);
  const validation = await deskOf(browser, DEMO_ACCOUNTS.validation.email);
  const publication = await deskOf(browser, DEMO_ACCOUNTS.publication.email);

  // saisie transmits.
  let row = await openWaiting(saisie, 'A transmettre', libref);
  await tabTo(saisie, row.getByRole('button', { name: 'Transmettre' }));
  await saisie.keyboard.press('Enter');
  await confirmWithKeys(saisie, transmitConfirmationOf('saisie').title);
  await expect(toast(saisie, WORKFLOW_MESSAGES.transmitted)).toBeVisible();

  // validation returns it, with the instruction typed in the dialog.
  row = await openWaiting(validation, 'A valider', libref);
  await tabTo(validation, row.getByRole('button', { name: 'Retourner pour correction' }));
  await validation.keyboard.press('Enter');
  const back = validation.getByRole('dialog', { name: 'Retourner pour correction' });
  await tabTo(validation, back.getByRole('textbox', { name: 'Instruction' }));
  await validation.keyboard.type('Préciser le calendrier.');
  await confirmWithKeys(validation, 'Retourner pour correction', 'Retourner');
  await expect(toast(validation, WORKFLOW_MESSAGES.returned)).toBeVisible();

  // saisie transmits again, validation sends it on.
  await saisie.goto('/admin/dashboard');
  row = await openWaiting(saisie, 'A transmettre', libref);
  await tabTo(saisie, row.getByRole('button', { name: 'Transmettre' }));
  await saisie.keyboard.press('Enter');
  await confirmWithKeys(saisie, transmitConfirmationOf('saisie').title);
  await expect(toast(saisie, WORKFLOW_MESSAGES.transmitted)).toBeVisible();
  await validation.goto('/admin/dashboard');
  row = await openWaiting(validation, 'A valider', libref);
  await tabTo(validation, row.getByRole('button', { name: 'Transmettre' }));
  await validation.keyboard.press('Enter');
  await confirmWithKeys(validation, transmitConfirmationOf('validation').title);
  await expect(toast(validation, WORKFLOW_MESSAGES.transmitted)).toBeVisible();

  // publication publishes.
  row = await openWaiting(publication, 'A publier', libref);
  await tabTo(publication, row.getByRole('button', { name: 'Publier' }));
  await publication.keyboard.press('Enter');
  await confirmWithKeys(publication, WORKFLOW_MESSAGES.publishTitle);
  await expect(toast(publication, WORKFLOW_MESSAGES.published)).toBeVisible();
  await expect(row).toHaveCount(0);
});

/** A searchable select reached with Tab, narrowed by typing, its option taken with the arrow and Enter keys. */
async function chooseWithKeys(page: Page, label: string, typed: string, option: string) {
  const field = page.getByRole('combobox', { name: label });
  await tabTo(page, field);
  await page.keyboard.type(typed);
  await expect(page.getByRole('option', { name: option, exact: true })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(field).toHaveValue(option);
}

test('follow-up entry with the keyboard only: three pickers, the form with a typed date, the date rule, cancel', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const libref = `Suivi au clavier ${Date.now().toString(36).slice(-5)}`;
  const { id } = await createReformeAs(request, DEMO_ACCOUNTS.saisie.email, libref, { typeref: 'SECTORIELLE' });
  const { headers } = await apiSignIn(request, DEMO_ACCOUNTS.saisie.email);
  const objectif = await request.post('/api/v1/objectifs', { headers, data: { reforme_id: id, libobjectif: 'Accueil sans attente' } });
  expect(objectif.status(), await objectif.text()).toBe(201);
  const result = await request.post('/api/v1/resultats', {
    headers,
    data: {
      objectif_id: (await objectif.json()).data.id,
      libresult: 'Attente moyenne',
      indicateur: 'Minutes',
      valeur_cible: '10',
      valeurref: '45',
    },
  });
  expect(result.status(), await result.text()).toBe(201);

  const saisie = await deskOf(browser, DEMO_ACCOUNTS.saisie.email);
  await tabTo(saisie, saisie.getByRole('navigation').getByRole('link', { name: 'Données de suivi' }));
  await saisie.keyboard.press('Enter');
  await expect(saisie.getByRole('heading', { name: SUIVI_MESSAGES.entryTitle, level: 1 })).toBeVisible();

  // The reform is searched on the server; the objective and the result narrow from it.
  await chooseWithKeys(saisie, 'Réformes', libref.slice(0, 14), libref);
  await chooseWithKeys(saisie, 'Objectifs', 'Accueil', 'Accueil sans attente');
  await chooseWithKeys(saisie, 'Résultat attendu', 'Attente', 'Attente moyenne');
  await expect(saisie.getByText(SUIVI_MESSAGES.noRecords)).toBeVisible();

  // The form: the first field has the focus, the date is typed, Enter on "Enregistrer" saves.
  await tabTo(saisie, saisie.getByRole('button', { name: 'Ajouter' }));
  await saisie.keyboard.press('Enter');
  const dialog = saisie.getByRole('dialog', { name: SUIVI_MESSAGES.addTitle });
  await expect(dialog.getByRole('textbox', { name: 'Taux de réalisation (%)' })).toBeFocused();
  // The open dialog passes axe as the screens do (accessibility.spec.ts covers screens, not dialogs).
  const audit = await new AxeBuilder({ page: saisie }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const blocking = audit.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);
  await saisie.keyboard.type('40');
  await tabTo(saisie, dialog.getByRole('textbox', { name: 'Valeur réalisée' }));
  await saisie.keyboard.type('27');
  await tabTo(saisie, dialog.getByRole('textbox', { name: 'Date' }));
  await saisie.keyboard.type('15/05/2026');
  await tabTo(saisie, dialog.getByRole('button', { name: 'Enregistrer' }));
  await saisie.keyboard.press('Enter');
  await expect(toast(saisie, SUIVI_MESSAGES.created)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const records = saisie.getByRole('table', { name: 'Données de suivi du résultat Attente moyenne' });
  await expect(records.getByRole('row').nth(1)).toContainText('15 mai 2026');
  await expect(records.getByRole('row').nth(1)).toContainText('27');

  // A date before the last one is refused under its field; Annuler leaves the dialog without saving
  // (Escape does not: the form would be lost).
  await tabTo(saisie, saisie.getByRole('button', { name: 'Ajouter' }), { backwards: true });
  await saisie.keyboard.press('Enter');
  await expect(dialog.getByRole('textbox', { name: 'Taux de réalisation (%)' })).toBeFocused();
  await saisie.keyboard.type('45');
  await tabTo(saisie, dialog.getByRole('textbox', { name: 'Valeur réalisée' }));
  await saisie.keyboard.type('25');
  await tabTo(saisie, dialog.getByRole('textbox', { name: 'Date' }));
  await saisie.keyboard.type('14/05/2026');
  await tabTo(saisie, dialog.getByRole('button', { name: 'Enregistrer' }));
  await saisie.keyboard.press('Enter');
  await expect(dialog.getByText(SUIVI_MESSAGES.dateBeforeLast)).toBeVisible();
  await tabTo(saisie, dialog.getByRole('button', { name: 'Annuler' }), { backwards: true });
  await saisie.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(records.getByRole('row')).toHaveCount(2);
});
