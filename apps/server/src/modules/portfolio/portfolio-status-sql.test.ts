import { daysBetween, PORTFOLIO_STATUS_VALUES, type PortfolioStatus, type ProgressSummary, portfolioStatusOf } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { runMigrations } from '../../db/migrate.ts';
import { seedDemoData } from '../../db/seed/demo.ts';
import { seedReferenceData } from '../../db/seed/reference.ts';
import { createTestDatabase } from '../../test/test-database.ts';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const iso = (time: number) => new Date(time).toISOString().slice(0, 10);
const DAY = 86_400_000;
const shift = (day: string, days: number) => iso(Date.parse(`${day}T00:00:00Z`) + days * DAY);
const midpoint = (from: string, to: string) => shift(from, Math.floor(daysBetween(from, to) / 2));

interface Case extends ProgressSummary {
  id: number;
  today: string;
}

/** Periods and follow-ups around month ends, leap days and the thresholds of the rule. */
function generatedCases(count: number): Case[] {
  const next = random(20_261_124);
  const base = Date.UTC(2027, 0, 31);
  return Array.from({ length: count }, (_, id) => {
    const start = base + Math.floor((next() - 0.5) * 800) * DAY;
    const length = Math.floor(next() * 400);
    const today = start + Math.floor((next() - 0.2) * (length + 200)) * DAY;
    const results = Math.floor(next() * 4);
    const validated = Math.min(results, Math.floor(next() * (results + 1)));
    const progress = validated + next() * (results - validated);
    const lastSuivi = next() < 0.3 ? null : iso(today - Math.floor(next() * 120) * DAY);
    return {
      id: id + 1,
      date_debut: iso(start),
      date_fin: iso(start + length * DAY),
      results_total: results,
      results_validated: validated,
      progress_sum: progress,
      last_suivi_date: lastSuivi,
      today: iso(today),
    };
  });
}

describe('portfolio status in SQL (migration 0007)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
    await runMigrations(database);
  });
  afterAll(() => database.close());

  it('agrees with the domain rule on 3 000 generated cases, and each status holds until its day', async () => {
    const cases = generatedCases(3000);
    const seen = new Set<PortfolioStatus>();
    const values = sql.join(
      cases.map(
        (entry) =>
          sql`(${entry.id}::int, ${entry.today}::date, ${entry.date_debut}::date, ${entry.date_fin}::date, ${entry.results_total}::int, ${entry.results_validated}::int, ${entry.progress_sum}::float8, ${entry.last_suivi_date}::date)`,
      ),
      sql`, `,
    );
    const result = await database.db.execute<{ id: number; status: PortfolioStatus; rank: number; until: string | null }>(sql`
      select c.id, s.status, portfolio_status_rank(s.status) as rank,
        portfolio_status_until(c.today, c.debut, c.fin, c.total, c.validated, c.progress_sum, c.last_suivi)::text as until
      from (values ${values}) as c(id, today, debut, fin, total, validated, progress_sum, last_suivi),
      lateral (select portfolio_status(c.today, c.debut, c.fin, c.total, c.validated, c.progress_sum, c.last_suivi) as status) s`);
    expect(result.rows).toHaveLength(cases.length);
    for (const row of result.rows) {
      const entry = cases[row.id - 1];
      const verdict = portfolioStatusOf(entry, entry.today);
      expect({ id: row.id, status: row.status, rank: row.rank }).toEqual({
        id: entry.id,
        status: verdict.status,
        rank: PORTFOLIO_STATUS_VALUES.indexOf(verdict.status),
      });
      // Never too late: the status the rule gives on each day up to `until` is today's.
      const until = row.until ?? shift(entry.today, 500);
      expect(daysBetween(entry.today, until), `case ${row.id}`).toBeGreaterThanOrEqual(0);
      for (const day of [shift(entry.today, 1), midpoint(entry.today, until), until]) {
        if (daysBetween(day, until) < 0) continue;
        expect(portfolioStatusOf(entry, day).status, `case ${row.id} on ${day}`).toBe(verdict.status);
      }
      seen.add(row.status);
    }
    expect(seen.size).toBe(6);
  });

  it('recomputes only the rows whose day has passed', async () => {
    await seedReferenceData(database.db);
    await seedDemoData(database.db);
    const due = async (today: string) =>
      (await database.db.execute<{ changed: number }>(sql`select portfolio_refresh_due(${today}::date) as changed`)).rows[0].changed;
    const today = new Date().toISOString().slice(0, 10);
    expect(await due(today)).toBe(0);
    const later = shift(today, 4000);
    expect(await due(later)).toBeGreaterThan(0);
    expect(await due(later)).toBe(0);
    const rows = await database.db.execute<{ status: string; expected: string }>(sql`
      select status, portfolio_status(${later}::date, date_debut, date_fin, results_total, results_validated, progress_sum, last_suivi_date) as expected
      from reforme_progress`);
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const row of rows.rows) expect(row.status).toBe(row.expected);
  });
});
