import { type Placeholder, sql } from 'drizzle-orm';
import { reformeProgress } from '../../db/schema/index.ts';

/**
 * The portfolio's computed columns over `reforme_progress`. The status itself is computed in the database by
 * `portfolio_status` (migration 0007), the SQL mirror of the domain's `portfolioStatusOf`; its test runs both on
 * thousands of generated cases.
 */
export function portfolioColumns(today: string | Placeholder) {
  const day = sql`${today}::date`;
  const p = reformeProgress;
  return {
    progress: sql<number>`(case when ${p.results_total} > 0 then least(1, ${p.progress_sum} / ${p.results_total}) else 0 end)::float8`,
    daysWithout: sql<
      number | null
    >`(case when ${day} >= ${p.date_debut} then ${day} - coalesce(${p.last_suivi_date}, ${p.date_debut}) end)`,
  };
}
