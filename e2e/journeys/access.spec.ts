import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiSignIn, DEMO_ACCOUNTS, sideMenu, signIn } from '../support/app.ts';

/** The toast whose message is exactly `text`. */
function toastSaying(page: Page, text: string): Locator {
  return page.getByRole('alert').filter({ has: page.getByText(text, { exact: true }) });
}

function button(page: Page, name: string): Locator {
  return page.getByRole('toolbar', { name: 'Actions' }).getByRole('button', { name, exact: true });
}

function rowOf(page: Page, label: string): Locator {
  return page.getByRole('row').filter({ has: page.getByRole('radio', { name: label, exact: true }) });
}

async function search(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Rechercher', exact: true }).fill(text);
}

/** A role's card of "Rôles & permissions". */
function card(page: Page, role: string): Locator {
  return page.getByRole('region', { name: role, exact: true });
}

/** The rights a card lists, as "Fonctionnalité : Action". */
function rightsOf(role: Locator): Promise<string[]> {
  return role.locator('tbody tr').evaluateAll((rows) =>
    rows.map((row) => {
      const cells = Array.from(row.querySelectorAll('td')).map((cell) => cell.textContent?.trim() ?? '');
      return `${cells[0]} : ${cells[1]}`;
    }),
  );
}

async function chooseOption(page: Page, field: Locator, option: string): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('roles, permissions and profils: create a role, give it rights, copy them, revoke one, copy a menu', async ({ page }) => {
  test.setTimeout(180_000);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const audit = `Audit ${stamp}`;
  const controle = `Contrôle ${stamp}`;

  await signIn(page, DEMO_ACCOUNTS.admin.email);

  await test.step('Rôles: the list, without "Consulter", and its empty side panel', async () => {
    await sideMenu(page).getByRole('link', { name: 'Rôles', exact: true }).click();
    await expect(page).toHaveURL('/admin/roles');
    await expect(page.getByRole('heading', { name: 'Liste des rôles', level: 1 })).toBeVisible();
    for (const column of ['Libellé', 'Fixer ce rôle ?', 'Statut']) {
      await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await expect(rowOf(page, 'saisie central')).toContainText('Non');
    await expect(button(page, 'Consulter')).toHaveCount(0);
    await expect(page.getByRole('toolbar', { name: 'Actions' }).getByRole('button')).toHaveText([
      'Ajouter',
      'Éditer',
      'Supprimer',
      'Copier',
    ]);
    await expect(page.getByRole('region', { name: 'Menu du rôle' })).toContainText('Sélectionnez un rôle pour voir son menu.');
  });

  await test.step('Rôles: create two roles, one fixed', async () => {
    for (const [name, fixed] of [
      [audit, true],
      [controle, false],
    ] as const) {
      await button(page, 'Ajouter').click();
      const dialog = page.getByRole('dialog', { name: 'Enregistrer un rôle' });
      const submit = dialog.getByRole('button', { name: 'Enregistrer' });
      await expect(submit).toBeDisabled();
      await dialog.getByRole('textbox', { name: 'Libellé' }).fill(name);
      if (fixed) await dialog.getByRole('checkbox', { name: 'Fixer ce rôle ?' }).check();
      await expect(submit).toBeEnabled();
      await submit.click();
      await expect(toastSaying(page, 'Enregistrement effectué avec succès').first()).toBeVisible();
      await expect(dialog).toBeHidden();
    }
    await search(page, stamp);
    await expect(page.getByText('2 élément(s)')).toBeVisible();
    await expect(rowOf(page, audit)).toContainText('Oui');
    await expect(rowOf(page, audit)).toContainText('Actif');
    await expect(rowOf(page, controle)).toContainText('Non');
    await rowOf(page, audit).getByRole('radio').check();
    await expect(page.getByRole('region', { name: `Menu du rôle ${audit}` })).toContainText("Ce rôle n'a aucun menu.");
  });

  await test.step('Rôles: copy the menu of saisie to the new role and see it in the side panel', async () => {
    await page.getByRole('button', { name: 'Réinitialiser la recherche' }).click();
    await rowOf(page, 'saisie').getByRole('radio').check();
    const saisieMenu = page.getByRole('region', { name: 'Menu du rôle saisie' });
    await expect(saisieMenu).toContainText('A transmettre');

    await button(page, 'Copier').click();
    const dialog = page.getByRole('dialog', { name: "Copier le menu d'un rôle" });
    await expect(dialog.getByRole('combobox', { name: 'Ancien rôle' })).toHaveValue('saisie');
    const submit = dialog.getByRole('button', { name: 'Copier' });
    await expect(submit).toBeDisabled();
    await chooseOption(page, dialog.getByRole('combobox', { name: 'Rôle cible' }), audit);
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(toastSaying(page, 'Menus du rôle copiés avec succès')).toBeVisible();
    await expect(dialog).toBeHidden();

    await search(page, stamp);
    await rowOf(page, audit).getByRole('radio').check();
    const panel = page.getByRole('region', { name: `Menu du rôle ${audit}` });
    const top = panel.getByRole('list').first();
    await expect(top.locator(':scope > li')).toHaveCount(2);
    await expect(top.locator(':scope > li').first()).toHaveText('Tableau de bord /admin/dashboard');
    const reformes = top.locator(':scope > li').nth(1);
    await expect(reformes.getByRole('listitem')).toHaveText([
      'Nouvelle /admin/create-reforme',
      'A transmettre /admin/treatment-reformes',
      'Mes enregistrements /admin/mylist-reformes',
      'Données de suivi /admin/follow-reforme-create',
      'Suivi des réformes /admin/follow-reformes',
    ]);
    await page.screenshot({ path: '/tmp/e2e-access-roles.png', fullPage: true });
  });

  await test.step('Permissions: the list in French, a new pair feature x actions', async () => {
    await sideMenu(page).getByRole('link', { name: 'Permissions', exact: true }).click();
    await expect(page).toHaveURL('/admin/permissions');
    await expect(page.getByRole('heading', { name: 'Liste des permissions', level: 1 })).toBeVisible();
    for (const column of ['Fonctionnalité', 'Action', 'Nom', 'Statut']) {
      await expect(page.getByRole('columnheader', { name: column })).toBeVisible();
    }
    await search(page, 'natures.');
    await expect(rowOf(page, 'Natures : Lister')).toContainText('natures.list');
    await expect(rowOf(page, 'Natures : Activer/Désactiver')).toContainText('natures.status');

    await button(page, 'Ajouter').click();
    const dialog = page.getByRole('dialog', { name: 'Enregistrer une permission' });
    const submit = dialog.getByRole('button', { name: 'Enregistrer' });
    await expect(submit).toBeDisabled();
    await chooseOption(page, dialog.getByRole('combobox', { name: 'Fonctionnalité système' }), 'Fonctionnalités');
    const actions = dialog.getByRole('group', { name: 'Actions' });
    await actions.getByRole('checkbox', { name: 'Lister' }).check();
    await actions.getByRole('checkbox', { name: 'Lister' }).uncheck();
    await expect(dialog.getByText('Au moins une action est requise')).toBeVisible();
    await expect(submit).toBeDisabled();
    await actions.getByRole('checkbox', { name: 'Ajouter' }).check();
    await actions.getByRole('checkbox', { name: 'Modifier' }).check();
    await page.screenshot({ path: '/tmp/e2e-access-permission-form.png' });
    await submit.click();
    await expect(toastSaying(page, 'Permission(s) enregistrée(s) avec succès')).toBeVisible();
    await expect(dialog).toBeHidden();

    await search(page, 'features.');
    await expect(page.getByText('4 élément(s)')).toBeVisible();
    await expect(rowOf(page, 'Fonctionnalités : Ajouter')).toContainText('features.add');
    await expect(rowOf(page, 'Fonctionnalités : Modifier')).toContainText('Actif');

    // The same pairs again: nothing new, a conflict titled by the screen.
    await button(page, 'Ajouter').click();
    await chooseOption(page, dialog.getByRole('combobox', { name: 'Fonctionnalité système' }), 'Fonctionnalités');
    await actions.getByRole('checkbox', { name: 'Ajouter' }).check();
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Ces permissions existent déjà.' });
    await expect(refusal).toBeVisible();
    await expect(refusal).toContainText('Gestion des permissions');
    await dialog.getByRole('button', { name: 'Annuler' }).click();

    // Deactivate then delete the unused one.
    await rowOf(page, 'Fonctionnalités : Modifier').getByRole('radio').check();
    await button(page, 'Désactiver').click();
    await expect(toastSaying(page, 'Désactivation effectuée avec succès')).toBeVisible();
    await expect(rowOf(page, 'Fonctionnalités : Modifier')).toContainText('Bloqué');
    await rowOf(page, 'Fonctionnalités : Modifier').getByRole('radio').check();
    await button(page, 'Supprimer').click();
    await page.getByRole('dialog', { name: 'Suppression' }).getByRole('button', { name: 'Oui, continuer' }).click();
    await expect(toastSaying(page, 'Suppression effectuée avec succès')).toBeVisible();
    await expect(page.getByText('3 élément(s)')).toBeVisible();
    await page.screenshot({ path: '/tmp/e2e-access-permissions.png', fullPage: true });
  });

  await test.step('Rôles & permissions: give the new role several rights at once', async () => {
    await sideMenu(page).getByRole('link', { name: 'Rôles & permissions', exact: true }).click();
    await expect(page).toHaveURL('/admin/profils');
    await expect(page.getByRole('heading', { name: 'Rôles & permissions', level: 1 })).toBeVisible();
    for (const role of ['admin', 'saisie central', 'saisie', 'validation', 'publication', audit, controle]) {
      await expect(card(page, role)).toBeVisible();
    }
    await expect(card(page, audit)).toContainText('Aucun droit');

    await card(page, audit).getByRole('button', { name: 'Ajouter un droit' }).click();
    const dialog = page.getByRole('dialog', { name: `Ajouter un droit au rôle ${audit}` });
    const submit = dialog.getByRole('button', { name: 'Ajouter' });
    await expect(submit).toBeDisabled();
    const rights = dialog.getByRole('combobox', { name: 'Droits' });
    for (const right of ['Secteurs : Lister', 'Natures : Lister', 'Fonctionnalités : Ajouter']) {
      await rights.fill(right.split(' : ')[0]);
      await page.getByRole('option', { name: right, exact: true }).click();
    }
    await page.keyboard.press('Escape');
    await page.screenshot({ path: '/tmp/e2e-access-grant.png' });
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(toastSaying(page, 'Droit(s) ajouté(s) avec succès')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(card(page, audit)).toContainText('3 droit(s)');
    await expect.poll(() => rightsOf(card(page, audit))).toEqual(['Fonctionnalités : Ajouter', 'Natures : Lister', 'Secteurs : Lister']);
  });

  await test.step('Rôles & permissions: copy them to the other role', async () => {
    await card(page, audit).getByRole('button', { name: 'Copier vers' }).click();
    const dialog = page.getByRole('dialog', { name: `Copier les droits du rôle ${audit}` });
    await expect(dialog.getByRole('button', { name: 'Copier' })).toBeDisabled();
    await chooseOption(page, dialog.getByRole('combobox', { name: 'Rôle cible' }), controle);
    await dialog.getByRole('button', { name: 'Copier' }).click();
    await expect(toastSaying(page, 'Droits copiés avec succès')).toBeVisible();
    await expect(card(page, controle)).toContainText('3 droit(s)');
    await expect.poll(() => rightsOf(card(page, controle))).toEqual(['Fonctionnalités : Ajouter', 'Natures : Lister', 'Secteurs : Lister']);
  });

  await test.step('Rôles & permissions: revoke one after the confirmation', async () => {
    await card(page, controle).getByRole('button', { name: 'Retirer Natures : Lister' }).click();
    const confirm = page.getByRole('dialog', { name: 'Retirer un droit' });
    await expect(confirm).toContainText('Voulez vous retirer ce droit ?');
    await confirm.getByRole('button', { name: 'Oui, continuer' }).click();
    await expect(toastSaying(page, 'Droit retiré avec succès')).toBeVisible();
    await expect(card(page, controle)).toContainText('2 droit(s)');
    await expect.poll(() => rightsOf(card(page, controle))).toEqual(['Fonctionnalités : Ajouter', 'Secteurs : Lister']);
    // The source role keeps its rights.
    await expect.poll(() => rightsOf(card(page, audit))).toEqual(['Fonctionnalités : Ajouter', 'Natures : Lister', 'Secteurs : Lister']);

    // Each card searches its own rights.
    await card(page, audit).getByRole('textbox', { name: 'Rechercher un droit' }).fill('secteur');
    await expect.poll(() => rightsOf(card(page, audit))).toEqual(['Secteurs : Lister']);
    await expect.poll(() => rightsOf(card(page, controle))).toEqual(['Fonctionnalités : Ajouter', 'Secteurs : Lister']);
    await card(page, audit).scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/e2e-access-profils.png', fullPage: true });
  });
});

test("the screens follow a change of the admin's own rights without signing in again", async ({ page, request }) => {
  test.setTimeout(120_000);
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const temporary = `Temporaire ${stamp}`;
  // Safety net: whatever happens, admin gets roles.delete back (later journeys count on admin's rights).
  const { headers } = await apiSignIn(request, DEMO_ACCOUNTS.admin.email);
  const profiles = (await (await request.get('/api/v1/profiles', { headers })).json()) as {
    data: { roles: { id: number; name: string }[]; permissions: { id: number; name: string }[] };
  };
  const adminRole = profiles.data.roles.find((role) => role.name === 'admin');
  const rolesDelete = profiles.data.permissions.find((permission) => permission.name === 'roles.delete');
  expect(adminRole && rolesDelete).toBeTruthy();

  try {
    await signIn(page, DEMO_ACCOUNTS.admin.email);
    await sideMenu(page).getByRole('link', { name: 'Rôles', exact: true }).click();
    await button(page, 'Ajouter').click();
    const form = page.getByRole('dialog', { name: 'Enregistrer un rôle' });
    await form.getByRole('textbox', { name: 'Libellé' }).fill(temporary);
    await form.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(form).toBeHidden();
    await expect(button(page, 'Supprimer')).toBeVisible();

    await test.step('revoke "Rôles : Supprimer" from admin in the profils screen', async () => {
      await sideMenu(page).getByRole('link', { name: 'Rôles & permissions', exact: true }).click();
      const admin = card(page, 'admin');
      await admin.getByRole('button', { name: 'Retirer Rôles : Supprimer' }).click();
      await page.getByRole('dialog', { name: 'Retirer un droit' }).getByRole('button', { name: 'Oui, continuer' }).click();
      await expect(toastSaying(page, 'Droit retiré avec succès')).toBeVisible();
      await expect(admin.getByRole('button', { name: 'Retirer Rôles : Supprimer' })).toHaveCount(0);
    });

    await test.step('the roles list no longer offers "Supprimer"', async () => {
      await sideMenu(page).getByRole('link', { name: 'Rôles', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Liste des rôles', level: 1 })).toBeVisible();
      await expect(button(page, 'Ajouter')).toBeVisible();
      await expect(button(page, 'Supprimer')).toHaveCount(0);
      // And the server refuses it too.
      const refused = await page.evaluate(async () => {
        const token = JSON.parse(localStorage.getItem('access_token') ?? 'null');
        const answer = await fetch('/api/v1/roles/1', {
          method: 'DELETE',
          headers: { Authorization: `Bearer ${token}`, 'X-Action': 'delete' },
        });
        return answer.status;
      });
      expect(refused).toBe(403);
    });

    await test.step('grant it back: "Supprimer" returns', async () => {
      await sideMenu(page).getByRole('link', { name: 'Rôles & permissions', exact: true }).click();
      await card(page, 'admin').getByRole('button', { name: 'Ajouter un droit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Ajouter un droit au rôle admin' });
      await dialog.getByRole('combobox', { name: 'Droits' }).fill('Rôles : Supp');
      await page.getByRole('option', { name: 'Rôles : Supprimer', exact: true }).click();
      await page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: 'Ajouter' }).click();
      await expect(toastSaying(page, 'Droit(s) ajouté(s) avec succès')).toBeVisible();

      await sideMenu(page).getByRole('link', { name: 'Rôles', exact: true }).click();
      await search(page, stamp);
      await rowOf(page, temporary).getByRole('radio').check();
      await button(page, 'Supprimer').click();
      await page.getByRole('dialog', { name: 'Suppression' }).getByRole('button', { name: 'Oui, continuer' }).click();
      await expect(toastSaying(page, 'Suppression effectuée avec succès')).toBeVisible();
      await expect(page.getByText('0 élément(s)')).toBeVisible();
    });
  } finally {
    if (adminRole && rolesDelete) {
      await request.post('/api/v1/profiles', { headers, data: { id: adminRole.id, permissions: [rolesDelete.id] } });
    }
  }
});
