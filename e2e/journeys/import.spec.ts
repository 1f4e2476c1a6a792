import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { IMPORT_MESSAGES, IMPORT_TEMPLATE } from '@reformes/domain';
import { DEMO_ACCOUNTS, signIn, toast } from '../support/app.ts';

test('saisie central imports reforms from a CSV: template, preview with errors, a line fixed, import', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36).slice(-5);
  const good = `Import au guichet ${stamp}`;
  const fixed = `Import corrigé ${stamp}`;
  await signIn(page, DEMO_ACCOUNTS['saisie central'].email);
  await page.getByRole('navigation').getByRole('link', { name: 'Liste' }).click();
  await page.getByRole('link', { name: 'Importer' }).click();
  await expect(page).toHaveURL('/admin/import-reformes');
  await expect(page.getByRole('heading', { name: IMPORT_MESSAGES.title, level: 1 })).toBeVisible();

  // The template is a real download whose header the import reads.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Télécharger le modèle (CSV)' }).click();
  const template = await download;
  expect(template.suggestedFilename()).toBe('modele-import-reformes.csv');
  const templateText = await fs.readFile(await template.path(), 'utf8');
  expect(templateText.split('\r\n')[0]).toBe(`\uFEFF${IMPORT_TEMPLATE.header.map((header) => `"${header}"`).join(';')}`);

  // A file of two reforms, the second with an unknown nature and an impossible date.
  const line = (changes: Record<string, string>) =>
    IMPORT_TEMPLATE.header.map((label, index) => changes[label] ?? IMPORT_TEMPLATE.example[index]).join(';');
  const csv = [
    IMPORT_TEMPLATE.header.join(';'),
    line({ Réforme: good }),
    line({
      Réforme: '',
      Objectif: 'Simplifier les démarches',
      'Résultat attendu': 'Guichets ouverts',
      'Valeur cible': '12',
      'Valeur de référence': '0',
    }),
    line({ Réforme: fixed, Nature: 'Culturelle', 'Date fin': '31/02/2027' }),
  ].join('\r\n');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Fichier CSV ou Excel (.xlsx)' }).click();
  await (await chooser).setFiles({ name: 'reformes.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Lire le fichier' }).click();

  const summary = page.getByRole('status').filter({ hasText: 'ligne(s)' });
  await expect(summary).toHaveText('3 ligne(s), 2 réforme(s) : 1 sans erreur (2 ligne(s)), 2 erreur(s) sur 1 ligne(s).');
  const lines = page.getByRole('table', { name: 'Lignes du fichier' });
  const wrong = lines.getByRole('row').filter({ hasText: fixed });
  await expect(wrong).toContainText('Nature : Nature inconnue : « Culturelle »');
  await expect(wrong).toContainText('Date fin :');

  // Fixed in its dialog, checked again by the server.
  await wrong.getByRole('button', { name: 'Corriger la ligne 4' }).click();
  const dialog = page.getByRole('dialog', { name: 'Corriger la ligne 4' });
  await expect(dialog.getByRole('textbox', { name: 'Nature' })).toHaveAccessibleDescription('Nature inconnue : « Culturelle »');
  await dialog.getByRole('textbox', { name: 'Nature' }).fill('Structurelle');
  await dialog.getByRole('textbox', { name: 'Date fin' }).fill('28/02/2027');
  await dialog.getByRole('button', { name: 'Vérifier la ligne' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(summary).toHaveText('3 ligne(s), 2 réforme(s) : 2 sans erreur (3 ligne(s)).');

  await page.getByRole('button', { name: 'Importer 2 réforme(s) sans erreur' }).click();
  const confirm = page.getByRole('dialog', { name: IMPORT_MESSAGES.title });
  await confirm.getByRole('button', { name: 'Oui, continuer' }).click();
  await expect(toast(page, IMPORT_MESSAGES.imported(2))).toBeVisible();

  // The list finds them.
  await page.getByRole('link', { name: 'Voir la liste des réformes' }).click();
  await expect(page).toHaveURL('/admin/list-reformes');
  await page.getByRole('textbox', { name: 'Rechercher' }).fill(stamp);
  await expect(page.getByRole('row').filter({ hasText: good })).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: fixed })).toHaveCount(1);
});

test('a bad file is refused in French and nothing is imported', async ({ page }) => {
  await signIn(page, DEMO_ACCOUNTS.admin.email);
  await page.goto('/admin/import-reformes');
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Fichier CSV ou Excel (.xlsx)' }).click();
  await (await chooser).setFiles({ name: 'liste.csv', mimeType: 'text/csv', buffer: Buffer.from('Nom;Prénom\r\nDupont;Jean') });
  await page.getByRole('button', { name: 'Lire le fichier' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Colonne(s) inconnue(s) : Nom, Prénom.' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Lignes du fichier' })).toHaveCount(0);
});
