import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { transmitConfirmationOf, WORKFLOW_MESSAGES } from '@reformes/domain';
import { createReformeAs, DEMO_ACCOUNTS, signIn, toast } from '../support/app.ts';

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
