import { PORTFOLIO_STATUS_VALUES, type PortfolioRow, portfolioStatusLabel, portfolioStatusOf } from '@reformes/domain';
import { eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reformeProgress, reformes } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { todayOf } from './portfolio.service.ts';

describe('GET portfolio (issue 16)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function wholePortfolio(who: 'saisie central' | 'saisie' | 'validation', query = '') {
    const caller = await t.as(who);
    const first = await caller.get(`portfolio?per_page=100${query}`);
    expect(first.statusCode, first.body).toBe(200);
    return first.json().data as { data: PortfolioRow[]; total: number };
  }

  it('lists every active reform of the scope, most urgent first, each status as the domain computes it', async () => {
    const page = await wholePortfolio('saisie central');
    const [{ active }] = (await t.db.execute<{ active: number }>(sql`select count(*)::int as active from reformes where is_active`)).rows;
    expect(page.total).toBe(active);
    const summaries = new Map((await t.db.select().from(reformeProgress)).map((row) => [row.reforme_id, row]));
    const today = todayOf();
    const ranks = page.data.map((row) => PORTFOLIO_STATUS_VALUES.indexOf(row.status));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    for (const row of page.data) {
      const summary = summaries.get(row.id) ?? { results_total: 0, results_validated: 0, progress_sum: 0, last_suivi_date: null };
      const verdict = portfolioStatusOf({ ...summary, date_debut: row.date_debut, date_fin: row.date_fin }, today);
      expect({ id: row.id, status: row.status, days: row.days_without_suivi }).toEqual({
        id: row.id,
        status: verdict.status,
        days: verdict.days_without_suivi,
      });
      expect(row.progress).toBeCloseTo(verdict.progress, 9);
    }
  });

  it('keeps saisie within its structure', async () => {
    const saisie = await t.as('saisie');
    const structureId = (saisie.session.user as { id: number; structure_id?: number }).structure_id;
    expect(structureId).toBeTypeOf('number');
    const page = await wholePortfolio('saisie');
    const ids = page.data.map((row) => row.id);
    const rows = ids.length
      ? await t.db.select({ structure_id: reformes.structure_id }).from(reformes).where(sql`${reformes.id} in ${ids}`)
      : [];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.structure_id === structureId)).toBe(true);
    expect(page.total).toBeLessThanOrEqual((await wholePortfolio('saisie central')).total);
  });

  it('filters by status, and the counters add up to the total of each filter', async () => {
    const admin = await t.as('saisie central');
    const counts = (await admin.get('portfolio/counts')).json().data as Record<string, number>;
    expect(Object.keys(counts).sort()).toEqual([...PORTFOLIO_STATUS_VALUES].sort());
    const whole = await wholePortfolio('saisie central');
    expect(Object.values(counts).reduce((sum, count) => sum + count, 0)).toBe(whole.total);
    for (const status of PORTFOLIO_STATUS_VALUES) {
      const page = await wholePortfolio('saisie central', `&status=${status}`);
      expect(page.total, status).toBe(counts[status]);
      expect(page.data.every((row) => row.status === status)).toBe(true);
    }
  });

  it('moves a reform to "Terminée" once all its results are validated', async () => {
    const [row] = (
      await t.db.execute<{ id: number }>(
        sql`select reforme_id as id from reforme_progress where results_total > 0 and results_validated < results_total limit 1`,
      )
    ).rows;
    await t.db.execute(sql`update resultats set status = 1 where objectif_id in (select id from objectifs where reforme_id = ${row.id})`);
    const page = await wholePortfolio('saisie central', '&status=terminee');
    expect(page.data.map((entry) => entry.id)).toContain(row.id);
    await t.db.update(reformes).set({ is_active: false }).where(eq(reformes.id, row.id));
    expect((await wholePortfolio('saisie central', '&status=terminee')).data.map((entry) => entry.id)).not.toContain(row.id);
  });

  it('exports the filtered overview as CSV and xlsx, in the same order, batch after batch', async () => {
    const caller = await t.as('saisie central');
    const counts = (await caller.get('portfolio/counts')).json().data as Record<string, number>;
    const status = PORTFOLIO_STATUS_VALUES.find((value) => counts[value] > 1) as string;
    const whole = await wholePortfolio('saisie central', `&status=${status}`);
    expect(whole.total).toBeGreaterThan(1);

    const csv = await caller.get(`portfolio/export.csv?status=${status}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="portefeuille-reformes-${todayOf()}.csv"`);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      '"Réforme";"Structure";"Nature";"Type";"Date début";"Date fin";"État";"Statut";"Avancement (%)";"Résultats validés";"Résultats";"Dernier suivi"',
    );
    expect(lines.slice(1).map((line) => line.split(';')[0].replace(/^"|"$/g, ''))).toEqual(whole.data.map((row) => row.libref));
    expect(lines.slice(1).map((line) => line.split(';')[7])).toEqual(whole.data.map((row) => `"${portfolioStatusLabel(row)}"`));

    const xlsx = await caller.get(`portfolio/export.xlsx?status=${status}`);
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Portefeuille');
    const names: string[] = [];
    sheet?.eachRow((row, index) => {
      if (index > 1) names.push(String(row.getCell(1).value));
    });
    expect(sheet?.getRow(1).getCell(8).value).toBe('Statut');
    expect(names).toEqual(whole.data.map((row) => row.libref));
  });

  it('reads an export in keyset batches: every row once, in list order, whatever the batch size', async () => {
    const { createPortfolioService } = await import('./portfolio.service.ts');
    const service = createPortfolioService(t.db);
    const auth = { userId: 1, role: 'saisie central', structureId: 1 } as Parameters<typeof service.page>[0];
    const listed = (await service.page(auth, {}, { page: 1, per_page: 100 })).data.map((row) => row.id);
    const batched: number[] = [];
    for await (const rows of service.batches(auth, {}, 3)) batched.push(...rows.map((row) => row.id));
    expect(batched).toEqual(listed);
  });

  it('answers 422 with errorsList on a bad filter, 401 without a session, 403 to admin (no follow-up view)', async () => {
    const admin = await t.as('saisie central');
    const bad = await admin.get('portfolio?status=perdue&nature_id=abc');
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errorsList ?? {})).toEqual(expect.arrayContaining(['status', 'nature_id']));
    expect((await t.anonymous.get('portfolio')).statusCode).toBe(401);
    expect((await t.anonymous.get('portfolio/counts')).statusCode).toBe(401);
    expect((await (await t.as('admin')).get('portfolio')).statusCode).toBe(403);
  });
});
