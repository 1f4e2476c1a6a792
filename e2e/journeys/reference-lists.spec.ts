import { expect, type Locator, type Page, test } from '@playwright/test';
import { DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

/** The toast whose message is exactly `text` ("Activation..." is also part of "Désactivation..."). */
function toastSaying(page: Page, text: string): Locator {
  return page.getByRole('alert').filter({ has: page.getByText(text, { exact: true }) });
}

/** One reference list of spec §2.9, as a user meets it. */
interface ListScreen {
  menu: string;
  route: string;
  title: string;
  createTitle: string;
  editTitle: string;
  submit: string;
  /** Title of the form's error alert (spec §8). */
  errorTitle: string;
  /** Fills the fields other than Libellé. */
  fillOthers?: (page: Page, dialog: Locator, label: string) => Promise<void>;
}

const SCREENS: ListScreen[] = [
  {
    menu: 'Secteurs',
    route: '/admin/sectors',
    title: 'Liste des secteurs',
    createTitle: 'Enregistrer un secteur',
    editTitle: 'Modifier un secteur',
    submit: 'Enregistrer',
    errorTitle: 'Secteur',
  },
  {
    menu: 'Structures',
    route: '/admin/structures',
    title: 'Liste des structures',
    createTitle: 'Enregistrer une structure',
    editTitle: 'Modifier une structure',
    submit: 'Enregistrer',
    errorTitle: 'Structure',
    fillOthers: async (page, dialog, label) => {
      await dialog.getByRole('textbox', { name: 'Sigle' }).fill(`S${label.slice(-6).toUpperCase()}`);
      await dialog.getByRole('textbox', { name: 'Adresse' }).fill('5 rue des Essais');
      await dialog.getByRole('textbox', { name: 'Email' }).fill(`contact.${label.slice(-6)}@reformes.test`);
      await dialog.getByRole('textbox', { name: 'Téléphone' }).fill('0102030405');
      await dialog.getByRole('combobox', { name: 'Secteur' }).click();
      await page.getByRole('option', { name: 'Numérique' }).click();
    },
  },
  {
    menu: 'Natures',
    route: '/admin/natures',
    title: 'Liste des natures',
    createTitle: 'Enregistrer une nature',
    editTitle: 'Modifier une nature',
    submit: 'Enregistrer',
    errorTitle: 'Nature',
  },
  {
    menu: 'Couvertures',
    route: '/admin/covers',
    title: 'Liste des couvertures',
    createTitle: 'Enregistrer une Couverture',
    editTitle: 'Modifier une couverture',
    submit: 'Enregistrer',
    errorTitle: 'Couverture',
  },
  {
    menu: 'Entités administratives',
    route: '/admin/entities',
    title: 'Liste des entités administratives',
    createTitle: 'Enregistrer une entité',
    editTitle: 'Modifier une entité',
    submit: 'Soumettre',
    errorTitle: 'Entité administrative',
  },
];

/** The table row whose radio's label holds `label` (a structure's radio also names its acronym). */
function rowOf(page: Page, label: string): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('radio', { name: label }) });
}

function button(page: Page, name: string): Locator {
  return page.getByRole('toolbar', { name: 'Actions' }).getByRole('button', { name, exact: true });
}

async function select(page: Page, label: string): Promise<void> {
  await page.getByRole('radio', { name: label }).check();
}

test.describe('reference lists (spec §2.9)', () => {
  // Each journey walks the whole screen; success toasts stay 5 s over the action bar, which clicks wait out.
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(async ({ page }) => {
    await signIn(page, DEMO_ACCOUNTS.admin.email);
  });

  for (const screen of SCREENS) {
    test(`${screen.title}: add, find, edit, deactivate, activate, delete`, async ({ page }) => {
      const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
      const label = `Essai e2e ${stamp}`;
      const edited = `${label} modifié`;
      const searchBox = page.getByRole('textbox', { name: 'Rechercher' });

      await test.step('open the list from the side menu', async () => {
        await sideMenu(page).getByRole('link', { name: screen.menu, exact: true }).click();
        await expect(page).toHaveURL(screen.route);
        await expect(page.getByRole('heading', { name: screen.title, level: 1 })).toBeVisible();
        await expect(page.getByText(/^\d+ élément\(s\)$/)).toBeVisible();
      });

      await test.step('an action on no row warns', async () => {
        await button(page, 'Consulter').click();
        await expect(toastSaying(page, 'Aucun élément selectionné')).toBeVisible();
      });

      await test.step('add', async () => {
        await button(page, 'Ajouter').click();
        const dialog = page.getByRole('dialog', { name: screen.createTitle });
        await expect(dialog).toBeVisible();
        const submit = dialog.getByRole('button', { name: screen.submit, exact: true });
        await expect(submit).toBeDisabled();
        // Escape does not close the form (spec §9).
        await page.keyboard.press('Escape');
        await expect(dialog).toBeVisible();
        await dialog.getByRole('textbox', { name: 'Libellé' }).fill(label);
        await screen.fillOthers?.(page, dialog, stamp);
        await expect(submit).toBeEnabled();
        if (screen.menu === 'Structures') await page.screenshot({ path: '/tmp/e2e-structure-form.png' });
        await submit.click();
        await expect(toastSaying(page, 'Enregistrement effectué avec succès')).toBeVisible();
        await expect(dialog).toBeHidden();
      });

      await test.step('a duplicate label is refused, titled by the entity', async () => {
        await button(page, 'Ajouter').click();
        const dialog = page.getByRole('dialog', { name: screen.createTitle });
        await dialog.getByRole('textbox', { name: 'Libellé' }).fill(label);
        await screen.fillOthers?.(page, dialog, `${stamp}b`);
        await dialog.getByRole('button', { name: screen.submit, exact: true }).click();
        const alert = toast(page, `Le libellé « ${label} » existe déjà.`);
        await expect(alert).toBeVisible();
        await expect(alert).toContainText(screen.errorTitle);
        await expect(dialog).toBeVisible();
        await dialog.getByRole('button', { name: 'Annuler' }).click();
        await expect(dialog).toBeHidden();
      });

      await test.step('find', async () => {
        await searchBox.fill(stamp);
        await expect(rowOf(page, label)).toBeVisible();
        await expect(page.getByText('1 élément(s)')).toBeVisible();
        await expect(rowOf(page, label)).toContainText('Actif');
        await page.screenshot({ path: `/tmp/e2e-list-${screen.route.split('/').pop()}.png` });
      });

      await test.step('edit', async () => {
        await select(page, label);
        await button(page, 'Éditer').click();
        const dialog = page.getByRole('dialog', { name: screen.editTitle });
        const input = dialog.getByRole('textbox', { name: 'Libellé' });
        await expect(input).toHaveValue(label);
        await input.fill(edited);
        await dialog.getByRole('button', { name: screen.submit, exact: true }).click();
        await expect(toastSaying(page, 'Modification effectuée avec succès')).toBeVisible();
        await expect(dialog).toBeHidden();
        await expect(rowOf(page, edited)).toBeVisible();
      });

      await test.step('deactivate', async () => {
        await select(page, edited);
        await expect(button(page, 'Activer')).toBeHidden();
        await page.screenshot({ path: `/tmp/e2e-selected-${screen.route.split('/').pop()}.png` });
        await button(page, 'Désactiver').click();
        await expect(toastSaying(page, 'Désactivation effectuée avec succès')).toBeVisible();
        await expect(rowOf(page, edited)).toContainText('Bloqué');
        // The reload clears the selection.
        await expect(page.getByRole('radio', { name: edited })).not.toBeChecked();
        await expect(button(page, 'Fermer')).toBeHidden();
      });

      await test.step('activate', async () => {
        await select(page, edited);
        await expect(button(page, 'Désactiver')).toBeHidden();
        await button(page, 'Activer').click();
        await expect(toastSaying(page, 'Activation effectuée avec succès')).toBeVisible();
        await expect(rowOf(page, edited)).toContainText('Actif');
      });

      await test.step('view the details', async () => {
        await select(page, edited);
        await button(page, 'Consulter').click();
        const dialog = page.getByRole('dialog', { name: 'Détails des informations' });
        await expect(dialog.getByRole('cell', { name: edited })).toBeVisible();
        await page.screenshot({ path: `/tmp/e2e-details-${screen.route.split('/').pop()}.png` });
        await dialog.getByRole('button', { name: 'Fermer' }).click();
        await expect(dialog).toBeHidden();
      });

      await test.step('delete', async () => {
        await select(page, edited);
        await button(page, 'Supprimer').click();
        const dialog = page.getByRole('dialog', { name: 'Suppression' });
        await expect(dialog).toContainText('Voulez vous vraiment retirer cet élément?');
        await expect(dialog.getByRole('button', { name: 'Annuler' })).toBeVisible();
        await page.screenshot({ path: `/tmp/e2e-delete-${screen.route.split('/').pop()}.png` });
        await dialog.getByRole('button', { name: 'Oui, continuer' }).click();
        await expect(toastSaying(page, 'Suppression effectuée avec succès')).toBeVisible();
        await expect(page.getByText('0 élément(s)')).toBeVisible();
        await expect(page.getByText('Aucun résultat trouvé')).toBeVisible();
      });

      await test.step('reset the search', async () => {
        await page.getByRole('button', { name: 'Réinitialiser la recherche' }).click();
        await expect(searchBox).toHaveValue('');
        await expect(page.getByRole('radio').first()).toBeVisible();
        await expect(page.getByText('0 élément(s)')).toBeHidden();
      });
    });
  }

  test('a sector still used by a structure cannot be deleted', async ({ page }) => {
    await page.goto('/admin/sectors');
    await expect(page.getByRole('heading', { name: 'Liste des secteurs', level: 1 })).toBeVisible();
    await page.getByRole('textbox', { name: 'Rechercher' }).fill('Numérique');
    await select(page, 'Numérique');
    await button(page, 'Supprimer').click();
    await page.getByRole('dialog', { name: 'Suppression' }).getByRole('button', { name: 'Oui, continuer' }).click();
    const alert = toast(page, 'Ce secteur est utilisé par des structures');
    await expect(alert).toBeVisible();
    await expect(alert).toContainText('Secteur');
    await expect(page.getByRole('radio', { name: 'Numérique' })).toBeVisible();
  });
});
