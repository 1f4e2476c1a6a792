import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { MESSAGES, REFORME_MESSAGES, WORKFLOW_MESSAGES } from '@reformes/domain';
import { apiSignIn, DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

/** Each role in its own browser. */
async function deskOf(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  return page;
}

function line(page: Page, label: string): Locator {
  return page.getByRole('row').filter({ has: page.getByText(label, { exact: true }) });
}

test('the wordings of spec §4 and §5: a sector from the reforms list, result status, send confirmation, exact share, period', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const suffix = `${Date.now().toString(36).slice(-5)}${Math.floor(Math.random() * 100)}`;
  const libref = `Registre des entreprises ${suffix}`;
  const libobjectif = `Ouvrir le registre ${suffix}`;

  await test.step('set-up: a reform of saisie with one result of three validated, waiting for validation', async () => {
    const saisie = await apiSignIn(request, DEMO_ACCOUNTS.saisie.email);
    const publication = await apiSignIn(request, DEMO_ACCOUNTS.publication.email);
    const natures = await (await request.get('/api/v1/natures', { headers: saisie.headers })).json();
    const covers = await (await request.get('/api/v1/covers', { headers: saisie.headers })).json();
    const post = async (path: string, headers: Record<string, string>, data: object) => {
      const answer = await request.post(`/api/v1/${path}`, { headers, data });
      expect(answer.status(), await answer.text()).toBe(201);
      return (await answer.json()).data as { id: number };
    };
    const reforme = await post('reformes', saisie.headers, {
      libref,
      typeref: 'SECTORIELLE',
      nature_id: natures.data[0].id,
      couverture_id: covers.data[0].id,
      objectif_glob: 'Immatriculer en ligne',
      popul_cible: 'Entreprises',
      struct_impl: 'Greffe, impôts',
      date_debut: '2026-02-01',
      date_fin: '2026-12-31',
    });
    const objectif = await post('objectifs', saisie.headers, { reforme_id: reforme.id, libobjectif });
    const results = [];
    for (const libresult of ['Registre en ligne', 'Délai de 24 heures', 'Frais réduits']) {
      results.push(
        await post('resultats', saisie.headers, {
          objectif_id: objectif.id,
          libresult,
          indicateur: 'Taux',
          valeur_cible: '100',
          valeurref: '0',
        }),
      );
    }
    await post('suivi-results', saisie.headers, { result_id: results[0].id, taux_realisat: 100, valeur_realise: 100, date: '2026-03-01' });
    const validated = await request.put(`/api/v1/resultats/${results[0].id}`, { headers: publication.headers, data: { status: 1 } });
    expect(validated.status(), await validated.text()).toBe(200);
    const sent = await request.post('/api/v1/affectations', { headers: saisie.headers, data: { reforme_id: reforme.id, sens: -1 } });
    expect(sent.ok(), await sent.text()).toBe(true);
  });

  await test.step('saisie central adds a sector from "Liste des réformes", then finds it in "Liste des secteurs"', async () => {
    const central = await deskOf(browser, DEMO_ACCOUNTS['saisie central'].email);
    const sector = `Secteur e2e ${suffix}`;
    await sideMenu(central).getByRole('link', { name: 'Liste', exact: true }).click();
    await expect(central).toHaveURL('/admin/list-reformes');
    await expect(central.getByRole('heading', { name: REFORME_MESSAGES.listTitle, level: 1 })).toBeVisible();
    await central.getByRole('button', { name: 'Ajouter un secteur' }).click();
    const dialog = central.getByRole('dialog', { name: 'Enregistrer un secteur' });
    const label = dialog.getByRole('textbox', { name: 'Libellé' });
    await expect(dialog.getByText('Libellé')).toBeVisible();
    await label.click();
    await label.press('Tab');
    await expect(dialog.getByText('Le libellé du secteur est requis')).toBeVisible();
    await label.fill(sector);
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect(toast(central, MESSAGES.created).filter({ hasText: 'Secteur' })).toBeVisible();
    await expect(dialog).toBeHidden();
    await central.screenshot({ path: '/tmp/wordings-sector.png', fullPage: true });

    await central.goto('/admin/sectors');
    await expect(central.getByRole('heading', { name: 'Liste des secteurs', level: 1 })).toBeVisible();
    await central.getByRole('textbox', { name: 'Rechercher' }).fill(sector);
    await expect(central.getByRole('radio', { name: sector })).toBeVisible();
  });

  const validation = await deskOf(browser, DEMO_ACCOUNTS.validation.email);

  await test.step('validation reads the results "atteint" / "En attente d\'atteinte" in the list to validate', async () => {
    await sideMenu(validation).getByRole('link', { name: 'A valider' }).click();
    await expect(validation.getByRole('heading', { name: WORKFLOW_MESSAGES.treatmentTitle })).toBeVisible();
    await validation.getByRole('textbox', { name: 'Rechercher' }).fill(libref);
    await line(validation, libref).getByRole('button', { name: 'Consulter' }).click();
    const sheet = validation.getByRole('dialog', { name: 'Fiche de la réforme' });
    await sheet.getByRole('tab', { name: 'Objectifs et résultats attendus' }).click();
    const results = sheet.getByRole('table', { name: `Résultats attendus : ${libobjectif}` });
    const statusOf = (libresult: string) => results.getByRole('row').filter({ hasText: libresult }).getByRole('cell').last();
    await expect(statusOf('Registre en ligne')).toHaveText('atteint');
    await expect(statusOf('Délai de 24 heures')).toHaveText("En attente d'atteinte");
    await expect(statusOf('Frais réduits')).toHaveText("En attente d'atteinte");
    await expect(results.getByText('Validé', { exact: true })).toHaveCount(0);
    await validation.screenshot({ path: '/tmp/wordings-validation-detail.png', fullPage: true });
    await sheet.getByRole('button', { name: 'Fermer' }).last().click();
    await expect(sheet).toBeHidden();
  });

  await test.step('validation is asked "Voulez vous envoyer cet enregistrement ?" before sending it on', async () => {
    await line(validation, libref).getByRole('button', { name: 'Transmettre' }).click();
    const confirm = validation.getByRole('dialog', { name: "Transmission de l'enregistrement" });
    await expect(confirm).toContainText('Voulez vous envoyer cet enregistrement ?');
    await validation.screenshot({ path: '/tmp/wordings-send.png' });
    await confirm.getByRole('button', { name: 'Oui, continuer' }).click();
    await expect(toast(validation, WORKFLOW_MESSAGES.transmitted)).toBeVisible();
    await expect(line(validation, libref)).toHaveCount(0);
  });

  await test.step('"Suivi des réformes" shows the share of validated results unrounded', async () => {
    await sideMenu(validation).getByRole('link', { name: 'Suivi des réformes' }).click();
    await expect(validation).toHaveURL('/admin/follow-reformes');
    const picker = validation.getByRole('combobox', { name: 'Réforme', exact: true });
    await picker.click();
    await picker.fill(libref);
    await validation.getByRole('option', { name: libref, exact: true }).click();
    const objectif = validation.getByRole('article', { name: libobjectif });
    // One result of three: JavaScript's (1 / 3) * 100, written the French way.
    await expect(objectif.getByText(/^33,33333333333333\s%$/)).toBeVisible();
    await validation.screenshot({ path: '/tmp/wordings-suivi.png', fullPage: true });
  });

  await test.step('the create form says "La période d\'execution est requise" while a date is missing', async () => {
    await validation.goto('/admin/create-reforme');
    await validation.getByRole('textbox', { name: 'Date de début' }).fill('01/02/2026');
    const period = validation.getByRole('textbox', { name: "Période d'exécution" });
    await period.click();
    await period.press('Tab');
    await expect(validation.getByText(REFORME_MESSAGES.periodexe)).toBeVisible();
    await validation.screenshot({ path: '/tmp/wordings-period.png', fullPage: true });
    await validation.getByRole('textbox', { name: 'Date de fin' }).fill('31/12/2026');
    await validation.getByRole('textbox', { name: 'Date de fin' }).press('Tab');
    await expect(period).toHaveValue('Du 01/02/2026 au 31/12/2026');
    await expect(validation.getByText(REFORME_MESSAGES.periodexe)).toHaveCount(0);
  });
});
