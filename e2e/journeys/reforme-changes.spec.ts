import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { MESSAGES, REFORME_CHANGE_MESSAGES, REFORME_MESSAGES, WORKFLOW_MESSAGES } from '@reformes/domain';
import { apiSignIn, DEMO_ACCOUNTS, sideMenu, signIn, toast } from '../support/app.ts';

function line(page: Page, label: string): Locator {
  return page.getByRole('row').filter({ has: page.getByText(label, { exact: true }) });
}

/** A reform recorded by saisie through the API (stage 1), with one objective and result; returns its ids. */
async function recordReforme(request: APIRequestContext, libref: string) {
  const { headers } = await apiSignIn(request, DEMO_ACCOUNTS.saisie.email);
  const natures = await (await request.get('/api/v1/natures', { headers })).json();
  const covers = await (await request.get('/api/v1/covers', { headers })).json();
  const created = await request.post('/api/v1/reformes', {
    headers,
    data: {
      libref,
      typeref: 'SECTORIELLE',
      nature_id: natures.data[0].id,
      couverture_id: covers.data[0].id,
      objectif_glob: 'Réduire les délais',
      popul_cible: 'Usagers',
      struct_impl: 'Ministère de la Santé',
      date_debut: '2026-04-01',
      date_fin: '2027-03-31',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id: number = (await created.json()).data.id;
  const objectif = await request.post('/api/v1/objectifs', { headers, data: { reforme_id: id, libobjectif: 'Objectif suivi' } });
  const resultat = await request.post('/api/v1/resultats', {
    headers,
    data: {
      objectif_id: (await objectif.json()).data.id,
      libresult: 'Délai moyen',
      indicateur: 'Jours',
      valeur_cible: '5',
      valeurref: '20',
    },
  });
  expect(resultat.status(), await resultat.text()).toBe(201);
  return { id, resultId: (await resultat.json()).data.id as number, headers };
}

test('edit and delete follow the stage where the reform waits; a followed reform is not deleted', async ({ page, browser, request }) => {
  const suffix = Date.now().toString(36).slice(-5);
  const followed = `Guichet suivi ${suffix}`;
  const draft = `Brouillon à jeter ${suffix}`;
  const first = await recordReforme(request, followed);
  await recordReforme(request, draft);
  const record = await request.post('/api/v1/suivi-results', {
    headers: first.headers,
    data: { result_id: first.resultId, taux_realisat: 20, valeur_realise: 16, date: '2026-06-30' },
  });
  expect(record.status(), await record.text()).toBe(201);

  await signIn(page, DEMO_ACCOUNTS.saisie.email);
  await test.step('my records: edit shown disabled, delete offered at the saisie stage', async () => {
    await sideMenu(page).getByRole('link', { name: 'Mes enregistrements' }).click();
    await expect(page.getByRole('heading', { name: REFORME_MESSAGES.myListTitle })).toBeVisible();
    await page.getByRole('textbox', { name: 'Rechercher' }).fill(suffix);
    await expect(line(page, draft)).toBeVisible();
    await expect(line(page, draft).getByRole('button', { name: 'Modifier' })).toBeDisabled();
    await expect(line(page, draft).getByRole('button', { name: 'Supprimer' })).toBeEnabled();
  });

  await test.step('a reform with follow-up records is refused, with the reason', async () => {
    await line(page, followed).getByRole('button', { name: 'Supprimer' }).click();
    const confirm = page.getByRole('dialog', { name: 'Suppression' });
    await confirm.getByRole('button', { name: 'Oui, continuer' }).click();
    await expect(toast(page, REFORME_CHANGE_MESSAGES.followUpDelete)).toBeVisible();
    await expect(line(page, followed)).toBeVisible();
  });

  await test.step('the draft without follow-up is deleted', async () => {
    await line(page, draft).getByRole('button', { name: 'Supprimer' }).click();
    await page.getByRole('dialog', { name: 'Suppression' }).getByRole('button', { name: 'Oui, continuer' }).click();
    await expect(toast(page, MESSAGES.deleted)).toBeVisible();
    await expect(line(page, draft)).toHaveCount(0);
  });

  await test.step('once transmitted, saisie no longer edits nor deletes it; validation does', async () => {
    await sideMenu(page).getByRole('link', { name: 'A transmettre' }).click();
    // The previous list's search box stays on screen until this one replaces it: type in the new one.
    await expect(page.getByRole('heading', { name: WORKFLOW_MESSAGES.treatmentTitle })).toBeVisible();
    await page.getByRole('textbox', { name: 'Rechercher' }).fill(suffix);
    await expect(line(page, followed).getByRole('button', { name: 'Modifier' })).toBeEnabled();
    await line(page, followed).getByRole('button', { name: 'Transmettre' }).click();
    await page.getByRole('dialog', { name: WORKFLOW_MESSAGES.transmitTitle }).getByRole('button', { name: 'Oui, continuer' }).click();
    await expect(toast(page, WORKFLOW_MESSAGES.transmitted)).toBeVisible();

    await sideMenu(page).getByRole('link', { name: 'Mes enregistrements' }).click();
    await expect(page.getByRole('heading', { name: REFORME_MESSAGES.myListTitle })).toBeVisible();
    await page.getByRole('textbox', { name: 'Rechercher' }).fill(suffix);
    await expect(line(page, followed)).toBeVisible();
    await expect(line(page, followed).getByRole('button', { name: 'Supprimer' })).toHaveCount(0);

    // The edit page, reached by its address, says why and stays read-only.
    await page.goto(`/admin/edit-reforme/${first.id}`);
    await expect(page.getByText(REFORME_CHANGE_MESSAGES.wrongStage)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enregistrer' })).toBeDisabled();

    const validation = await (await browser.newContext()).newPage();
    await signIn(validation, DEMO_ACCOUNTS.validation.email);
    await sideMenu(validation).getByRole('link', { name: 'A valider' }).click();
    await validation.getByRole('textbox', { name: 'Rechercher' }).fill(suffix);
    await expect(line(validation, followed).getByRole('button', { name: 'Modifier' })).toBeEnabled();
    await expect(line(validation, followed).getByRole('button', { name: 'Supprimer' })).toBeVisible();
    await expect(validation.getByRole('heading', { name: WORKFLOW_MESSAGES.treatmentTitle })).toBeVisible();
  });
});
