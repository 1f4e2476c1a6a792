import { monitorEventLoopDelay } from 'node:perf_hooks';
import {
  IMPORT_COLUMNS,
  IMPORT_LIMITS,
  IMPORT_MESSAGES,
  IMPORT_TEMPLATE,
  type ImportRow,
  MESSAGES,
  REFORME_IMPORT_ROUTES as ROUTES,
  type RouteSpec,
} from '@reformes/domain';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { AppError } from '../../http/app-error.ts';
import { droppedPaths } from '../../http/response-serializer.ts';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';
import { createImportService } from './import.service.ts';

const HEADER = IMPORT_TEMPLATE.header;
const EXAMPLE = IMPORT_TEMPLATE.example;
const csvOf = (lines: string[][]) =>
  lines.map((line) => line.map((cell) => (/[;"\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell)).join(';')).join('\r\n');
/** The template's example line with some cells changed, by column label. */
const line = (changes: Record<string, string> = {}) => HEADER.map((label, index) => changes[label] ?? EXAMPLE[index]);

function fileForm(content: Buffer | string, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([content]), filename);
  return form;
}

/**
 * The import's answers are written as JSON a piece at a time, not through the response serializer (issue 40): their
 * shape is checked here instead — the route's answer shape reads them and drops nothing.
 */
function expectShapeOf(route: RouteSpec, body: string) {
  const answer: unknown = JSON.parse(body);
  const parsed = (route.answer as z.ZodType).safeParse(answer);
  expect(parsed.error).toBeUndefined();
  expect(droppedPaths(answer, parsed.data)).toEqual([]);
}

/**
 * How long the server's event loop may be held while 20 000 lines are planned (issue 40; the goal is 50 ms, the
 * machine running the tests is shared): one plan in one go held it 1 to 5 s.
 */
const HELD_MS = 150;
/**
 * The same for 20 000 lines sent back to `check` or `commit` (11 MB of JSON): their body is still parsed (50-70 ms) and
 * checked against `importRowsSchema` (140 ms) in one go before the handler runs: 320-460 ms in all under load, left
 * open (issue 40 notes, helper E); 1 029 ms once in CI while a build and browser journeys ran beside it on the 2 cores.
 * The plan in one go held it 1.9 s: 1 200 ms still tells that apart.
 */
const BODY_HELD_MS = 1200;

async function xlsxOf(lines: Array<Array<string | number | Date>>): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Réformes');
  for (const values of lines) sheet.addRow(values);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe('reform import (issue 17)', { timeout: 120_000 }, () => {
  let t: TestApp;
  let central: Caller;
  let admin: Caller;
  let saisie: Caller;

  const preview = (caller: Caller, content: Buffer | string, filename = 'reformes.csv') =>
    t.app.inject({ method: 'POST', url: '/api/v1/reformes/import/preview', headers: caller.headers, payload: fileForm(content, filename) });
  const reformeCount = async () => (await central.get('reformes?per_page=1&page=1')).json().data.total as number;

  beforeAll(async () => {
    t = await createTestApp();
    central = await t.as('saisie central');
    admin = await t.as('admin');
    saisie = await t.as('saisie');
  });
  afterAll(() => t.close());

  it('previews a CSV: every line read, each issue by line and column in French, nothing written', async () => {
    const before = await reformeCount();
    const csv = `\uFEFF${csvOf([
      HEADER,
      line({ Réforme: 'Import A' }),
      line({
        Réforme: '',
        Objectif: 'Simplifier les démarches',
        'Résultat attendu': 'Guichets ouverts',
        'Valeur cible': '12',
        'Valeur de référence': '0',
      }),
      line({ Réforme: 'Import B', Nature: 'Culturelle', 'Date fin': '31/02/2027' }),
      line({ Réforme: 'Import C', Structure: 'XYZ', 'Valeur de référence': '' }),
    ])}`;
    const response = await preview(central, csv);
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json();
    expect(data.rows).toHaveLength(4);
    expect(data.rows[0]).toMatchObject({ line: 2, cells: { libref: 'Import A', structure: 'MS' } });
    expect(data).toMatchObject({ reformes: 3, valid: 1, validLines: 2 });
    expect(data.issues).toEqual([
      { line: 4, column: 'Nature', message: 'Nature inconnue : « Culturelle »' },
      { line: 4, column: 'Date fin', message: expect.stringMatching(/date/i) },
      { line: 5, column: 'Structure', message: 'Structure inconnue : « XYZ »' },
      { line: 5, column: 'Valeur de référence', message: 'La valeur référence est requise est requise' },
    ]);
    expect(await reformeCount()).toBe(before);
    expectShapeOf(ROUTES.preview, response.body);
    const checked = await central.post('reformes/import/check', { rows: data.rows });
    expect(checked.json().data).toMatchObject({ reformes: 3, valid: 1, validLines: 2, issues: data.issues });
    expectShapeOf(ROUTES.check, checked.body);
  });

  it('plans 20 000 distinct reforms without holding the event loop more than a moment (issue 40)', async () => {
    const rows: ImportRow[] = Array.from({ length: 20_000 }, (_, index) => ({
      line: index + 2,
      cells: cellsOf(line({ Réforme: `Réforme n° ${index}`, Nature: `Nature n° ${index}`, 'Date fin': '31/02/2027' })),
    }));
    const imports = createImportService(t.db);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const plan = await imports.preview(rows);
    // The delay of a held loop is recorded when its timer fires at last: after the plan.
    await new Promise((resolve) => setTimeout(resolve, 50));
    delay.disable();
    expect(plan).toMatchObject({ reformes: 20_000, valid: 0 });
    expect(plan.issues).toHaveLength(40_000);
    console.info(`20 000 reforms planned: event loop held at most ${(delay.max / 1e6).toFixed(0)} ms`);
    expect(delay.max / 1e6).toBeLessThanOrEqual(HELD_MS);
  });

  it('plans one import at a time: the others wait their turn, past a short queue they are refused (issue 40)', async () => {
    const rows: ImportRow[] = Array.from({ length: 3_000 }, (_, index) => ({
      line: index + 2,
      cells: cellsOf(line({ Réforme: `Réforme attendue n° ${index}` })),
    }));
    const imports = createImportService(t.db);
    const outcomes = await Promise.allSettled(Array.from({ length: IMPORT_LIMITS.waiting + 3 }, () => imports.preview(rows)));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as AppError] : []));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused.map((error) => [error.statusCode, error.message])).toEqual(refused.map(() => [429, IMPORT_MESSAGES.busy]));
    expect(outcomes.length - refused.length).toBeGreaterThanOrEqual(IMPORT_LIMITS.waiting);
  });

  it('checks 20 000 lines sent back without holding the event loop more than a moment (issue 40)', async () => {
    const rows: ImportRow[] = Array.from({ length: 20_000 }, (_, index) => ({
      line: index + 2,
      cells: cellsOf(line({ Réforme: `Réforme vérifiée n° ${index}`, Nature: `Nature n° ${index}`, 'Date fin': '31/02/2027' })),
    }));
    const payload = JSON.stringify({ rows });
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reformes/import/check',
      headers: { ...central.headers, 'content-type': 'application/json' },
      payload,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    delay.disable();
    expect(response.statusCode, response.body.slice(0, 200)).toBe(200);
    expect(response.json().data).toMatchObject({ reformes: 20_000, valid: 0 });
    console.info(
      `20 000 lines checked (${(payload.length / 1024 / 1024).toFixed(1)} MB): event loop held at most ${(delay.max / 1e6).toFixed(0)} ms`,
    );
    expect(delay.max / 1e6).toBeLessThanOrEqual(BODY_HELD_MS);
  });

  it('imports the reforms without issues, with objectives and results, in one go; the others stay out', async () => {
    const rows: ImportRow[] = [
      { line: 2, cells: { ...cellsOf(line({ Réforme: 'Import importée' })) } },
      {
        line: 3,
        cells: { libobjectif: 'Former les agents', libresult: 'Agents formés', indicateur: 'Nombre', valeur_cible: '200', valeurref: '0' },
      },
      { line: 4, cells: { ...cellsOf(line({ Réforme: 'Import refusée', Couverture: 'Mondiale' })) } },
    ];
    const response = await central.post('reformes/import', { rows });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ message: IMPORT_MESSAGES.imported(1), data: { reformes: 2, valid: 1, validLines: 2 } });
    expectShapeOf(ROUTES.commit, response.body);

    const found = (await central.get('reformes?per_page=10&page=1&search=Import%20import%C3%A9e')).json().data.data as Array<{
      id: number;
      libref: string;
      stage: number;
    }>;
    expect(found.map((row) => row.libref)).toEqual(['Import importée']);
    const detail = (await central.get(`reformes/${found[0].id}`)).json().data;
    expect(detail).toMatchObject({
      typeref: 'SECTORIELLE',
      date_debut: '2026-03-01',
      date_fin: '2027-12-31',
      periodexe: 'Du 01/03/2026 au 31/12/2027',
    });
    const objectifs = (await central.get(`objectifs/by-reforme/${found[0].id}`)).json().data as Array<{ libobjectif: string }>;
    expect(objectifs.map((row) => row.libobjectif).sort()).toEqual(['Former les agents', 'Simplifier les démarches']);
    expect((await central.get('reformes?per_page=10&page=1&search=Import%20refus%C3%A9e')).json().data.total).toBe(0);

    const audit = (await admin.get('audit-logs?per_page=5&page=1')).json().data.data as Array<{ action: string }>;
    expect(audit[0].action).toBe('reforme.import');
  });

  it('reads xlsx, its dates as dates and its numbers as numbers', async () => {
    const workbook = await xlsxOf([
      HEADER,
      line({ Réforme: 'Import Excel', 'Date début': '', 'Montant prévu': '' }).map((cell, index) =>
        HEADER[index] === 'Date début' ? new Date(Date.UTC(2026, 2, 1)) : HEADER[index] === 'Montant prévu' ? 150000.5 : cell,
      ),
    ]);
    const response = await preview(central, workbook, 'reformes.xlsx');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.rows[0].cells).toMatchObject({ date_debut: '01/03/2026', montant_prevu: '150000.5' });
    expect(response.json().data).toMatchObject({ valid: 1, issues: [] });
  });

  it('refuses a bad file with a clear error and imports nothing', async () => {
    const before = await reformeCount();
    const cases: Array<[string, Buffer | string, string, number, string]> = [
      ['latin-1 CSV', Buffer.from(`${HEADER.join(';')}\r\nR\xe9forme;x`, 'latin1'), 'a.csv', 422, IMPORT_MESSAGES.encoding],
      ['wrong columns', `Nom;Prénom\r\nA;B`, 'a.csv', 422, 'Colonne(s) inconnue(s) : Nom, Prénom.'],
      ['missing columns', `Réforme;Nature\r\nA;B`, 'a.csv', 422, 'Colonne(s) manquante(s) : Type de réforme, Structure, Couverture'],
      ['header only', HEADER.join(';'), 'a.csv', 422, IMPORT_MESSAGES.empty],
      ['macro workbook', Buffer.from('PK\u0003\u0004 xl/vbaProject.bin'), 'a.xlsm', 415, IMPORT_MESSAGES.macro],
      ['macro inside an .xlsx', Buffer.from('PK\u0003\u0004 xl/vbaProject.bin'), 'a.xlsx', 415, IMPORT_MESSAGES.macro],
      ['broken xlsx', Buffer.from('PK\u0003\u0004 pas un classeur'), 'a.xlsx', 422, IMPORT_MESSAGES.unreadable],
      ['a PDF', Buffer.from('%PDF-1.4'), 'a.pdf', 415, IMPORT_MESSAGES.kind],
    ];
    for (const [name, content, filename, status, message] of cases) {
      const response = await preview(central, content, filename);
      expect(response.statusCode, `${name}: ${response.body}`).toBe(status);
      expect(response.json().message, name).toContain(message);
    }
    const big = await preview(central, Buffer.alloc(11 * 1024 * 1024, 'a'), 'big.csv');
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toMatch(/trop volumineux.*10 Mo/);
    expect(await reformeCount()).toBe(before);
  });

  it('refuses an import with no valid reform, and the roles that do not import', async () => {
    const invalid = await central.post('reformes/import', { rows: [{ line: 2, cells: { libref: 'Seule' } }] });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().message).toBe(IMPORT_MESSAGES.nothingValid);
    const empty = await central.post('reformes/import', { rows: [] });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errorsList.rows).toEqual([IMPORT_MESSAGES.empty]);

    // The admin imports too (it has no "add" on reforms otherwise): its reforms start at stage 1 of their structure.
    const byAdmin = await admin.post('reformes/import', { rows: [{ line: 2, cells: cellsOf(line({ Réforme: 'Import par admin' })) }] });
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);

    const refused = await saisie.post('reformes/import', { rows: [{ line: 2, cells: cellsOf(line()) }] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.forbidden);
    expect((await preview(saisie, csvOf([HEADER, line()]))).statusCode).toBe(403);
  });

  it('is a right ("reformes-import.add") an admin can take from a role, effective at the next request', async () => {
    const setActive = (active: boolean) =>
      t.db.execute(sql`update role_permissions set is_active = ${active}
      where permission_id = (select id from permissions where name = 'reformes-import.add')
        and role_id = (select id from roles where name = 'saisie central')`);
    await setActive(false);
    try {
      const refused = await preview(central, csvOf([HEADER, line()]));
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(MESSAGES.forbidden);
      expect((await central.get('reformes/import/template.csv')).statusCode).toBe(403);
      expect((await central.get('api/user')).json().data.features).not.toContain('reformes-import.add');
    } finally {
      await setActive(true);
    }
    expect((await central.get('reformes/import/template.csv')).statusCode).toBe(200);
  });

  it('gives the template as CSV and as xlsx, which the preview reads back without an issue', async () => {
    const csv = await central.get('reformes/import/template.csv');
    expect(csv.headers['content-disposition']).toContain('modele-import-reformes.csv');
    expect(csv.body.startsWith(`\uFEFF"${HEADER[0]}";`)).toBe(true);
    expect((await preview(central, csv.rawPayload)).json().data).toMatchObject({ valid: 1, issues: [] });

    const xlsx = await central.get('reformes/import/template.xlsx');
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect((await preview(central, xlsx.rawPayload, 'modele.xlsx')).json().data).toMatchObject({ valid: 1, issues: [] });
  });
});

/** The cells of a template line, keyed as the API reads them. */
function cellsOf(values: string[]): ImportRow['cells'] {
  return Object.fromEntries(IMPORT_COLUMNS.map((column, index) => [column.key, values[index]]).filter(([, value]) => value !== ''));
}
