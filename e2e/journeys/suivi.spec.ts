import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { PUBLIC_MESSAGES, REFORME_MESSAGES, SUIVI_MESSAGES } from '@reformes/domain';
import { apiSignIn, DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

interface NestedReforme {
  id: number;
  libref: string;
  isPublished: boolean;
  objectifs: {
    id: number;
    libobjectif: string;
    results: { id: number; libresult: string; status: number; suivi_results: unknown[] }[];
  }[];
}

/** The French way of writing numbers puts narrow spaces between thousands. */
const frenchNumber = (value: number) => new Intl.NumberFormat('fr-FR').format(value);

async function deskOf(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  return page;
}

async function choose(page: Page, label: string, option: string) {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  // The reform pickers ask the server for what is typed: the reform may be on no first page.
  await input.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

function resultPanel(page: Page, libresult: string): Locator {
  return page
    .locator('.mantine-Paper-root')
    .filter({ has: page.getByRole('heading', { name: libresult, level: 3, exact: true }) })
    .last();
}

test('saisie records follow-up values, publication validates the result, the public page shows the progress', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);

  // A published reform of saisie's structure (MS) with a pending result that has no record yet, read from the API.
  const saisieApi = await apiSignIn(request, DEMO_ACCOUNTS.saisie.email);
  const nested = (await (await request.get('/api/v1/reformes/users/get-suivi-result', { headers: saisieApi.headers })).json()) as {
    data: NestedReforme[];
  };
  const target = nested.data
    .filter((reforme) => reforme.isPublished)
    .flatMap((reforme) =>
      reforme.objectifs.flatMap((objectif) =>
        objectif.results
          .filter((result) => result.status === 0 && result.suivi_results.length === 0)
          .map((result) => ({ reforme, objectif, result })),
      ),
    )
    .find(({ objectif }) => objectif.results.length === 2);
  expect(target, 'a published demo reform of MS with a result to follow').toBeDefined();
  if (!target) return;
  const { reforme, objectif, result } = target;
  const validatedBefore = objectif.results.filter((row) => row.status === 1).length;

  // saisie: the three chained selects, the warning without a result, a record, the date rule.
  const saisie = await deskOf(browser, DEMO_ACCOUNTS.saisie.email);
  await sideMenu(saisie).getByRole('link', { name: 'Données de suivi' }).click();
  await expect(saisie).toHaveURL('/admin/follow-reforme-create');
  await expect(saisie.getByRole('heading', { name: SUIVI_MESSAGES.entryTitle, level: 1 })).toBeVisible();
  await expect(saisie.getByRole('combobox', { name: 'Objectifs' })).toBeDisabled();
  await choose(saisie, 'Réformes', reforme.libref);
  await choose(saisie, 'Objectifs', objectif.libobjectif);
  await saisie.getByRole('button', { name: 'Ajouter' }).click();
  await expect(toast(saisie, SUIVI_MESSAGES.resultRequired)).toBeVisible();
  await expect(saisie.getByRole('dialog')).toHaveCount(0);

  await choose(saisie, 'Résultat attendu', result.libresult);
  await expect(saisie.getByText(SUIVI_MESSAGES.noRecords)).toBeVisible();
  await saisie.getByRole('button', { name: 'Ajouter' }).click();
  let dialog = saisie.getByRole('dialog', { name: SUIVI_MESSAGES.addTitle });
  await dialog.getByRole('textbox', { name: 'Taux de réalisation (%)' }).fill('42,5');
  await dialog.getByRole('textbox', { name: 'Valeur réalisée' }).fill('2 500,5');
  await dialog.getByRole('textbox', { name: 'Date' }).fill('15/01/2026');
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(saisie, SUIVI_MESSAGES.created)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const records = saisie.getByRole('table', { name: `Données de suivi du résultat ${result.libresult}` });
  await expect(records.getByRole('row')).toHaveCount(2);
  await expect(records.getByRole('row').nth(1)).toContainText('15 janvier 2026');
  await expect(records.getByRole('row').nth(1)).toContainText(`${frenchNumber(2500.5)}`);
  await expect(records.getByRole('columnheader', { name: 'Action' })).toHaveCount(0);

  await saisie.getByRole('button', { name: 'Ajouter' }).click();
  dialog = saisie.getByRole('dialog', { name: SUIVI_MESSAGES.addTitle });
  await dialog.getByRole('textbox', { name: 'Taux de réalisation (%)' }).fill('50');
  await dialog.getByRole('textbox', { name: 'Valeur réalisée' }).fill('3000');
  await dialog.getByRole('textbox', { name: 'Date' }).fill('10/01/2026');
  await dialog.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(toast(saisie, SUIVI_MESSAGES.dateBeforeLast).filter({ hasText: SUIVI_MESSAGES.dateTitle })).toBeVisible();
  await expect(dialog).toBeVisible();
  await saisie.screenshot({ path: '/tmp/suivi-entry-date-rule.png', fullPage: true });
  await dialog.getByRole('button', { name: 'Annuler' }).click();
  await expect(records.getByRole('row')).toHaveCount(2);
  await saisie.screenshot({ path: '/tmp/suivi-entry.png', fullPage: true });

  // saisie sees the follow-up view but may not validate.
  await sideMenu(saisie).getByRole('link', { name: 'Suivi des réformes' }).click();
  await choose(saisie, 'Réforme', reforme.libref);
  await expect(resultPanel(saisie, result.libresult)).toContainText(SUIVI_MESSAGES.pending);
  await expect(saisie.getByRole('button', { name: /^Valider/ })).toHaveCount(0);

  // publication validates the result after the confirmation.
  const publication = await deskOf(browser, DEMO_ACCOUNTS.publication.email);
  await sideMenu(publication).getByRole('link', { name: 'Suivi des réformes' }).click();
  await expect(publication).toHaveURL('/admin/follow-reformes');
  await choose(publication, 'Réforme', reforme.libref);
  const objectifPanel = publication.getByRole('article', { name: objectif.libobjectif });
  const bar = objectifPanel.getByRole('progressbar');
  await expect(bar).toHaveAttribute('aria-valuenow', String((validatedBefore / 2) * 100));
  const panel = resultPanel(publication, result.libresult);
  await expect(panel).toContainText(SUIVI_MESSAGES.pending);
  const chart = panel.getByRole('img', { name: `Évolution de la valeur réalisée : ${result.libresult}` });
  await expect(chart).toContainText('15/01/2026');
  await publication.screenshot({ path: '/tmp/suivi-view-before.png', fullPage: true });
  await panel.getByRole('button', { name: `Valider le résultat ${result.libresult}` }).click();
  const confirm = publication.getByRole('dialog', { name: SUIVI_MESSAGES.validateTitle });
  await expect(confirm).toContainText(REFORME_MESSAGES.confirmValidateResult);
  await confirm.getByRole('button', { name: 'Oui, continuer' }).click();
  await expect(toast(publication, REFORME_MESSAGES.resultValidated)).toBeVisible();
  await expect(panel).toContainText(SUIVI_MESSAGES.validated);
  await expect(panel.getByRole('button', { name: /^Valider/ })).toHaveCount(0);
  await expect(bar).toHaveAttribute('aria-valuenow', String(((validatedBefore + 1) / 2) * 100));
  await publication.screenshot({ path: '/tmp/suivi-view-after.png', fullPage: true });

  // Anyone: the public page shows the reform with its progress and the latest value.
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto('/accueil');
  await visitor.getByRole('searchbox', { name: 'Rechercher' }).fill(reforme.libref);
  await visitor.getByRole('link', { name: reforme.libref, exact: true }).click();
  await expect(visitor).toHaveURL(`/accueil/reformes/${reforme.id}`);
  await expect(visitor.getByRole('heading', { name: reforme.libref, level: 1 })).toBeVisible();
  const publicObjectif = visitor.getByRole('article', { name: objectif.libobjectif });
  await expect(publicObjectif.getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(((validatedBefore + 1) / 2) * 100));
  const publicRow = publicObjectif.getByRole('row').filter({ hasText: result.libresult });
  await expect(publicRow).toContainText(frenchNumber(2500.5));
  await expect(publicRow).toContainText('au 15 janvier 2026');
  await expect(publicRow).toContainText(SUIVI_MESSAGES.validated);
  // The same chart as the back office, its dates in French, and its figures as a table on demand.
  const publicFigure = publicObjectif.getByRole('figure', { name: `Évolution de la valeur réalisée : ${result.libresult}` });
  await expect(publicFigure.getByRole('img')).toContainText('15/01/2026');
  await publicFigure.getByRole('button', { name: 'Afficher les données du graphique' }).click();
  const chartTable = publicFigure.getByRole('table', { name: new RegExp(`^Évolution de la valeur réalisée : ${result.libresult}`) });
  await expect(chartTable.getByRole('row').filter({ hasText: '15 janvier 2026' })).toContainText(frenchNumber(2500.5));
  await expect(visitor.getByRole('link', { name: PUBLIC_MESSAGES.backToList })).toBeVisible();
  await visitor.screenshot({ path: '/tmp/public-detail.png', fullPage: true });
});
