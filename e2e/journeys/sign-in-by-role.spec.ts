import { expect, test } from '@playwright/test';
import { type DashboardView, type MenuEntry, menuOf, ROLE_NAMES, type RoleName, statCardsOf } from '@reformes/domain';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, readSideMenu, sideMenu, submitLogin, toast, userMenuButton } from '../support/app.ts';

const dashboard: MenuEntry = { name: 'Tableau de bord', route: '/admin/dashboard' };
const nouvelle: MenuEntry = { name: 'Nouvelle', route: '/admin/create-reforme' };
const liste: MenuEntry = { name: 'Liste', route: '/admin/list-reformes' };
const suivi: MenuEntry = { name: 'Suivi des réformes', route: '/admin/follow-reformes' };
const mesEnregistrements: MenuEntry = { name: 'Mes enregistrements', route: '/admin/mylist-reformes' };
const configurations = (children: MenuEntry[]): MenuEntry => ({ name: 'Configurations', children });
const referenceLists: MenuEntry[] = [
  { name: 'Secteurs', route: '/admin/sectors' },
  { name: 'Structures', route: '/admin/structures' },
  { name: 'Natures', route: '/admin/natures' },
  { name: 'Couvertures', route: '/admin/covers' },
  // Not in spec §2.3: added on purpose in @reformes/domain (menus.ts) so the entities screen of spec §2.1 can be reached.
  { name: 'Entités administratives', route: '/admin/entities' },
];

/**
 * Spec §2.3 written out by hand (plus the deliberate additions: the entities above and admin's
 * "Habilitations" group for the roles, permissions and profils screens of spec §2.1, the audit log and the failed mails and jobs), so a
 * mistake in @reformes/domain cannot hide behind menuOf().
 */
const SPEC_MENUS: Record<RoleName, MenuEntry[]> = {
  admin: [
    dashboard,
    { name: 'Comptes utilisateurs', route: '/admin/users' },
    {
      name: 'Habilitations',
      children: [
        { name: 'Rôles', route: '/admin/roles' },
        { name: 'Permissions', route: '/admin/permissions' },
        { name: 'Rôles & permissions', route: '/admin/profils' },
        { name: "Journal d'audit", route: '/admin/audit' },
        { name: 'Courriels et tâches', route: '/admin/jobs' },
        { name: 'Rappels', route: '/admin/reminders' },
      ],
    },
    { name: 'Réformes', children: [liste] },
    configurations([...referenceLists, { name: 'Sauvegarde', route: '/admin/backups' }]),
  ],
  'saisie central': [dashboard, { name: 'Réformes', children: [nouvelle, liste, suivi] }, configurations(referenceLists)],
  saisie: [
    dashboard,
    {
      name: 'Réformes',
      children: [
        nouvelle,
        { name: 'A transmettre', route: '/admin/treatment-reformes' },
        mesEnregistrements,
        { name: 'Données de suivi', route: '/admin/follow-reforme-create' },
        suivi,
      ],
    },
  ],
  validation: [
    dashboard,
    { name: 'Réformes', children: [nouvelle, { name: 'A valider', route: '/admin/treatment-reformes' }, mesEnregistrements, suivi] },
  ],
  publication: [
    dashboard,
    { name: 'Réformes', children: [nouvelle, { name: 'A publier', route: '/admin/treatment-reformes' }, mesEnregistrements, liste, suivi] },
  ],
};

/** Spec §2.6 written out by hand, for the same reason. */
const SPEC_CARDS: Record<RoleName, string[]> = {
  admin: ['Réformes', 'Réformes administratives', 'Réformes institutionnelles', 'Compte Utilisateurs', 'Structures'],
  'saisie central': ['Réformes', 'Réformes administratives', 'Réformes institutionnelles', 'Réformes en attente de transmission'],
  saisie: ['Réformes', 'Réformes administratives', 'Réformes institutionnelles', 'Réformes en attente de transmission'],
  validation: ['Réformes', 'Réformes administratives', 'Réformes institutionnelles', 'Réformes en attente de validation'],
  publication: ['Réformes', 'Réformes administratives', 'Réformes institutionnelles', 'Réformes en attente de publication'],
};
const ROLES = Object.keys(SPEC_MENUS) as RoleName[];
const EVERY_CARD_LABEL = [...new Set(Object.values(SPEC_CARDS).flat())];

const frenchNumber = new Intl.NumberFormat('fr-FR');

test('the hand-written menus and cards agree with @reformes/domain', () => {
  expect([...ROLE_NAMES]).toEqual(ROLES);
  for (const role of ROLES) {
    expect(menuOf(role), role).toEqual(SPEC_MENUS[role]);
    expect(
      statCardsOf(role).map((card) => card.label),
      role,
    ).toEqual(SPEC_CARDS[role]);
  }
});

for (const role of ROLES) {
  const account = DEMO_ACCOUNTS[role];

  test(`${role} signs in and sees the menu and dashboard of the role`, async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'CONNEXION' })).toBeVisible();
    const dashResponse = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/v1/dash/' && response.ok());
    await submitLogin(page, account.email, DEMO_PASSWORD);

    await expect(page).toHaveURL('/admin/dashboard');
    const welcome = toast(page, 'Connexion réussie');
    await expect(welcome).toBeVisible();
    await expect(welcome).toContainText('Connexion');
    await expect(userMenuButton(page, account.name)).toContainText(account.name);

    // The side menu: exactly the entries of spec §2.3, groups open, in order.
    const nav = sideMenu(page);
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Tableau de bord' })).toHaveAttribute('aria-current', 'page');
    expect(await readSideMenu(nav)).toEqual(SPEC_MENUS[role]);
    expect(await readSideMenu(nav)).toEqual(menuOf(role));
    const flatNames = SPEC_MENUS[role].flatMap((entry) => [entry.name, ...(entry.children ?? []).map((child) => child.name)]);
    await expect(nav.getByRole('link').or(nav.getByRole('button'))).toHaveText(flatNames);
    for (const group of SPEC_MENUS[role].filter((entry) => entry.children)) {
      await expect(nav.getByRole('button', { name: group.name })).toHaveAttribute('aria-expanded', 'true');
    }

    // The dashboard: the role's stat cards, each with the live figure the server sent.
    const figures = ((await (await dashResponse).json()) as { data: DashboardView }).data;
    expect(figures.total_reforme).toBeGreaterThan(0);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Tableau de bord', level: 1 })).toBeVisible();
    for (const card of statCardsOf(role)) {
      const label = main.getByText(card.label, { exact: true });
      await expect(label).toBeVisible();
      await expect(label.locator('..').getByRole('paragraph')).toHaveText([card.label, frenchNumber.format(figures[card.key])]);
    }
    for (const other of EVERY_CARD_LABEL.filter((label) => !SPEC_CARDS[role].includes(label))) {
      await expect(main.getByText(other, { exact: true }), `carte « ${other} » absente pour ${role}`).toHaveCount(0);
    }
  });
}
