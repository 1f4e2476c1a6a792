import { PORTFOLIO_STATUS_VALUES, type PortfolioStatus, portfolioStatusOf, resultProgress } from '@reformes/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { objectifs, reformeProgress, reformes, resultats, suiviResults } from './schema/index.ts';

/** The summaries recomputed in TypeScript from the rows, with the domain's rule for one result's progress. */
async function expectedSummaries(db: TestApp['db']) {
  const results = await db.execute<{ reforme_id: number; status: number; rate: string | null; date: string | null }>(sql`
    select o.reforme_id, r.status, latest.taux_realisat as rate, latest.date::text as date
    from resultats r join objectifs o on o.id = r.objectif_id
    left join lateral (select s.taux_realisat, s.date from suivi_results s where s.result_id = r.id order by s.date desc, s.id desc limit 1) latest on true
    where r.is_active and o.is_active`);
  const all = await db.select({ id: reformes.id }).from(reformes);
  const summaries = new Map(
    all.map(({ id }) => [id, { results_total: 0, results_validated: 0, progress_sum: 0, last_suivi_date: null as string | null }]),
  );
  for (const row of results.rows) {
    const summary = summaries.get(row.reforme_id);
    if (!summary) continue;
    summary.results_total += 1;
    summary.results_validated += row.status === 1 ? 1 : 0;
    summary.progress_sum += resultProgress(row.status === 1, row.rate === null ? null : Number(row.rate));
    if (row.date && (!summary.last_suivi_date || row.date > summary.last_suivi_date)) summary.last_suivi_date = row.date;
  }
  return summaries;
}

async function kept(db: TestApp['db']) {
  const rows = await db
    .select({
      reforme_id: reformeProgress.reforme_id,
      results_total: reformeProgress.results_total,
      results_validated: reformeProgress.results_validated,
      progress_sum: reformeProgress.progress_sum,
      last_suivi_date: reformeProgress.last_suivi_date,
    })
    .from(reformeProgress);
  return new Map(rows.map(({ reforme_id, ...summary }) => [reforme_id, summary]));
}

/** portfolio_counts against a count of reforme_progress itself. */
async function expectCountsInStep(db: TestApp['db']) {
  const grouped = sql`select structure_id, nature_id, typeref, coalesce(etat_mor, '') as etat_mor, status, is_active, count(*)::int as total
    from reforme_progress group by 1, 2, 3, 4, 5, 6`;
  const counted = (await db.execute(sql`${grouped} order by 1, 2, 3, 4, 5, 6`)).rows;
  const kept = (
    await db.execute(sql`select structure_id, nature_id, typeref, etat_mor, status, is_active, total from portfolio_counts where total <> 0
      order by 1, 2, 3, 4, 5, 6`)
  ).rows;
  expect(kept).toEqual(counted);
}

async function expectInStep(db: TestApp['db']) {
  await expectCountsInStep(db);
  const expected = await expectedSummaries(db);
  const actual = await kept(db);
  for (const [id, summary] of expected) {
    const row = actual.get(id) ?? { results_total: 0, results_validated: 0, progress_sum: 0, last_suivi_date: null };
    expect({ id, ...row, progress_sum: Number(row.progress_sum.toFixed(9)) }).toEqual({
      id,
      ...summary,
      progress_sum: Number(summary.progress_sum.toFixed(9)),
    });
  }
}

describe('reforme_progress (migration 0007): kept in step with reforms, objectives, results and follow-up', () => {
  let t: TestApp;
  let resultId: number;
  let reformeId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const [row] = await t.db
      .select({ resultId: resultats.id, reformeId: objectifs.reforme_id })
      .from(resultats)
      .innerJoin(objectifs, eq(objectifs.id, resultats.objectif_id))
      .limit(1);
    if (!row) throw new Error('the demo data holds no result');
    ({ resultId, reformeId } = row);
  });
  afterAll(() => t.close());

  it('summarises the demo data', async () => {
    await expectInStep(t.db);
    expect((await kept(t.db)).get(reformeId)?.results_total).toBeGreaterThan(0);
  });

  it('follows a new follow-up record, a later one taking over the rate', async () => {
    await t.db.insert(suiviResults).values({ result_id: resultId, taux_realisat: '40', valeur_realise: '4', date: '2099-01-01' });
    await expectInStep(t.db);
    expect((await kept(t.db)).get(reformeId)?.last_suivi_date).toBe('2099-01-01');
    await t.db.insert(suiviResults).values({ result_id: resultId, taux_realisat: '250', valeur_realise: '25', date: '2099-02-01' });
    await expectInStep(t.db);
  });

  it("copies the reform's filtered columns and keeps its status for today", async () => {
    await t.db.update(reformes).set({ etat_mor: 'suspendue', date_fin: '2099-12-31' }).where(eq(reformes.id, reformeId));
    const [row] = await t.db.select().from(reformeProgress).where(eq(reformeProgress.reforme_id, reformeId));
    const [reforme] = await t.db.select().from(reformes).where(eq(reformes.id, reformeId));
    expect(row).toMatchObject({
      is_active: reforme.is_active,
      structure_id: reforme.structure_id,
      nature_id: reforme.nature_id,
      typeref: reforme.typeref,
      etat_mor: 'suspendue',
      date_debut: reforme.date_debut,
      date_fin: '2099-12-31',
    });
    const today = new Date().toISOString().slice(0, 10);
    expect(row.status).toBe(portfolioStatusOf({ ...row, date_debut: reforme.date_debut, date_fin: reforme.date_fin }, today).status);
    expect(row.status_rank).toBe(PORTFOLIO_STATUS_VALUES.indexOf(row.status as PortfolioStatus));
  });

  it('follows a validation, a deactivation and deletions', async () => {
    await t.db.update(resultats).set({ status: 1 }).where(eq(resultats.id, resultId));
    await expectInStep(t.db);
    await t.db.update(objectifs).set({ is_active: false }).where(eq(objectifs.reforme_id, reformeId));
    await expectInStep(t.db);
    expect((await kept(t.db)).get(reformeId)?.results_total).toBe(0);
    await t.db.update(objectifs).set({ is_active: true }).where(eq(objectifs.reforme_id, reformeId));
    await t.db.delete(suiviResults).where(eq(suiviResults.result_id, resultId));
    await expectInStep(t.db);
    await t.db.delete(resultats).where(eq(resultats.id, resultId));
    await expectInStep(t.db);
    await t.db.delete(reformes).where(eq(reformes.id, reformeId));
    expect((await kept(t.db)).has(reformeId)).toBe(false);
    await expectCountsInStep(t.db);
    // A day passing moves statuses, and their counters with them.
    await t.db.execute(sql`select portfolio_refresh_due('2199-01-01'::date)`);
    await expectCountsInStep(t.db);
  });
});
