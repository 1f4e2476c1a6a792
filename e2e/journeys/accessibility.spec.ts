import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { canImportReformes, defaultPermissionNames, ROLE_NAMES, type RoleName } from '@reformes/domain';
import { DEMO_ACCOUNTS, readSideMenu, sideMenu, signIn } from '../support/app.ts';

/** WCAG 2.1 A and AA, the level the administration must meet (RGAA 4 maps to it). */
const WCAG_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING = new Set(['serious', 'critical']);

interface ScreenFigure {
  who: string;
  screen: string;
  rules: number;
  blocking: string[];
  minor: string[];
}

/** Runs axe on the page as it stands, once its title and its data are there. */
async function auditScreen(page: Page, who: string, screen: string): Promise<ScreenFigure> {
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole('status').filter({ has: page.getByLabel('Chargement...') })).toHaveCount(0);
  const results = await new AxeBuilder({ page }).withTags(WCAG_AA).analyze();
  const describe = (violation: (typeof results.violations)[number]) =>
    `${violation.id} (${violation.impact}, ${violation.nodes.length}) ${violation.nodes
      .slice(0, 3)
      .map((node) => node.target.join(' '))
      .join(' | ')}`;
  return {
    who,
    screen,
    rules: results.passes.length,
    blocking: results.violations.filter((violation) => BLOCKING.has(violation.impact ?? '')).map(describe),
    minor: results.violations.filter((violation) => !BLOCKING.has(violation.impact ?? '')).map(describe),
  };
}

const figures: ScreenFigure[] = [];

/** The first progress chart of the page, once drawn (its chunk loads with the first chart): its dates are on its axis. */
const progressChart = (page: Page) => page.getByRole('img', { name: /^Évolution de la valeur réalisée/ }).first();
const FRENCH_DATE = /\d{2}\/\d{2}\/\d{4}/;

test.afterAll(() => {
  // The per-screen figures of docs/accessibility.md: `npx playwright test accessibility` prints them.
  const table = figures.map((row) => `| ${row.who} | ${row.screen} | ${row.rules} | ${row.blocking.length} | ${row.minor.length} |`);
  console.info(['| Rôle | Écran | Règles passées | Graves/critiques | Autres |', '| --- | --- | --- | --- | --- |', ...table].join('\n'));
});

test('the public screens have no serious or critical axe finding', async ({ page }) => {
  test.setTimeout(120_000);
  const screens: Array<[string, string]> = [
    ['/login', 'Connexion'],
    ['/forgot-password', 'Mot de passe oublié'],
    ['/accueil', 'Réformes publiées'],
  ];
  const found: ScreenFigure[] = [];
  for (const [path, screen] of screens) {
    await page.goto(path);
    found.push(await auditScreen(page, 'public', screen));
  }
  // A published reform's public page, reached from the list as a visitor does.
  await page.goto('/accueil');
  await page.getByRole('table').getByRole('link').first().click();
  await expect(progressChart(page)).toContainText(FRENCH_DATE);
  found.push(await auditScreen(page, 'public', 'Fiche publique'));
  await page.getByRole('button', { name: 'Afficher les données du graphique' }).first().click();
  found.push(await auditScreen(page, 'public', 'Fiche publique, données du graphique'));
  figures.push(...found);
  expect(found.filter((row) => row.blocking.length > 0)).toEqual([]);
});

for (const role of ROLE_NAMES as readonly RoleName[]) {
  test(`every screen of ${role} has no serious or critical axe finding`, async ({ page, request }) => {
    test.setTimeout(300_000);
    await signIn(page, DEMO_ACCOUNTS[role].email);
    const menu = await readSideMenu(sideMenu(page));
    const routes = [
      ...new Map(
        menu
          .flatMap((entry) => ('children' in entry && entry.children ? entry.children : [entry]))
          .filter((entry): entry is { name: string; route: string } => 'route' in entry && typeof entry.route === 'string')
          .map((entry) => [entry.route, entry.name]),
      ),
    ];
    expect(routes.length).toBeGreaterThan(1);
    const found: ScreenFigure[] = [];
    for (const [route, name] of routes) {
      await page.goto(route);
      found.push(await auditScreen(page, role, name));
    }
    if (canImportReformes(defaultPermissionNames(role))) {
      // Reached from "Liste" (not a menu entry).
      await page.goto('/admin/import-reformes');
      found.push(await auditScreen(page, role, 'Importer des réformes'));
    }
    if (role === 'publication') {
      // One reform's follow-up with its charts: publication sees every published reform, the demo's have measures.
      const published = (await (await request.get('/api/v1/reformes/public/suivi-result?per_page=1&page=1')).json()) as {
        data: { data: { id: number }[] };
      };
      await page.goto(`/admin/follow-reformes?reforme=${published.data.data[0].id}`);
      await expect(progressChart(page)).toContainText(FRENCH_DATE);
      found.push(await auditScreen(page, role, "Suivi d'une réforme, avec ses graphiques"));
      // The enrolment of a second factor (issue 18): started, never confirmed, so the account keeps signing in as before.
      await page.goto('/admin/user-account');
      await page.getByRole('tab', { name: 'Double authentification' }).click();
      await page.getByRole('button', { name: 'Activer la double authentification' }).click();
      await expect(page.getByRole('img', { name: "QR code d'activation de la double authentification" })).toBeVisible();
      found.push(await auditScreen(page, role, 'Mon compte, activation de la double authentification'));
    }
    figures.push(...found);
    expect(found.filter((row) => row.blocking.length > 0)).toEqual([]);
  });
}
