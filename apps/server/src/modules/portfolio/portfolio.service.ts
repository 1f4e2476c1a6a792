import {
  PORTFOLIO_STATUS_VALUES,
  type PortfolioCounts,
  type PortfolioFilters,
  type PortfolioRow,
  type PortfolioStatus,
  seesAllStructures,
} from '@reformes/domain';
import { and, asc, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { keptPage, progressList, progressWithReformesList } from '../../db/lists/index.ts';
import { natures, portfolioCounts, reformeProgress, reformes, structures } from '../../db/schema/index.ts';
import type { AuthContext } from '../../http/guard.ts';
import type { PageQuery } from '../../http/pagination.ts';
import { reformeSearch } from '../reformes/reforme-filters.ts';
import { portfolioColumns } from './portfolio-status-sql.ts';

/** Today's calendar day, `YYYY-MM-DD`, in UTC as the database triggers count it (docs/decisions.md). */
export const todayOf = (now: Date = new Date()) => now.toISOString().slice(0, 10);

/** Rows per read of an export: small enough to stay light, large enough to keep round trips few. */
const EXPORT_BATCH = 1_000;

const p = reformeProgress;
const c = portfolioCounts;

/**
 * The follow-up portfolio (issue 16): every active reform of the caller's scope with its time-aware status,
 * read from `reforme_progress` (kept by triggers, migration 0007) after the rows whose day has passed are
 * recomputed. Filters, order "by lateness" (status, then the earliest end) and counters use its indexes.
 */
export function createPortfolioService(db: Db, now: () => Date = () => new Date()) {
  /** The statuses whose day has passed, recomputed for today: a handful of rows a day. */
  async function refreshed(): Promise<string> {
    const today = todayOf(now());
    await db.execute(sql`select portfolio_refresh_due(${today}::date)`);
    return today;
  }

  /** On reforme_progress by rank, the leading column of its order index: the same rows, read in list order. */
  function statusCondition(table: typeof p | typeof c, status: PortfolioStatus): SQL {
    return table === p ? eq(p.status_rank, PORTFOLIO_STATUS_VALUES.indexOf(status)) : eq(table.status, status);
  }

  /** The scope and the filters on either table: both carry the same columns. */
  function conditions(table: typeof p | typeof c, auth: AuthContext, filters: Omit<PortfolioFilters, 'search'>): SQL | undefined {
    return and(
      eq(table.is_active, true),
      seesAllStructures(auth.role) ? undefined : eq(table.structure_id, auth.structureId),
      filters.structure_id ? eq(table.structure_id, filters.structure_id) : undefined,
      filters.nature_id ? eq(table.nature_id, filters.nature_id) : undefined,
      filters.typeref ? eq(table.typeref, filters.typeref) : undefined,
      filters.etat_mor ? eq(table.etat_mor, filters.etat_mor) : undefined,
      filters.status ? statusCondition(table, filters.status) : undefined,
    );
  }

  /**
   * Reforms by status: from the trigger-kept counters (a few hundred rows) unless a text is searched, which
   * only the reforms themselves can answer.
   */
  async function countsBy(auth: AuthContext, { search, ...filters }: PortfolioFilters) {
    if (!search) {
      return db
        .select({ status: c.status, total: sql<number>`coalesce(sum(${c.total}), 0)::int` })
        .from(c)
        .where(conditions(c, auth, filters))
        .groupBy(c.status);
    }
    return db
      .select({ status: p.status, total: sql<number>`count(*)::int` })
      .from(p)
      .innerJoin(reformes, eq(reformes.id, p.reforme_id))
      .where(and(conditions(p, auth, filters), reformeSearch(search)))
      .groupBy(p.status);
  }

  /** The overview's condition: scope, filters and the searched text. */
  function filtered(auth: AuthContext, filters: PortfolioFilters): SQL | undefined {
    return and(conditions(p, auth, filters), filters.search ? reformeSearch(filters.search) : undefined);
  }

  /** The columns of an overview row. */
  function rowColumns(today: string | Placeholder) {
    const columns = portfolioColumns(today);
    return {
      id: p.reforme_id,
      libref: reformes.libref,
      typeref: p.typeref,
      etat_mor: p.etat_mor,
      date_debut: p.date_debut,
      date_fin: p.date_fin,
      structure: structures.sigl,
      nature: natures.libnature,
      status: sql<PortfolioRow['status']>`${p.status}`,
      progress: columns.progress,
      days_without_suivi: columns.daysWithout,
      last_suivi_date: p.last_suivi_date,
      results_total: p.results_total,
      results_validated: p.results_validated,
    };
  }

  /** The overview's rows, most urgent first (the order of `reforme_progress_order_idx`); `where` filters them. */
  function rowsOf<Extra extends Record<string, SQL.Aliased>>(today: string | Placeholder, where: SQL | undefined, extra?: Extra) {
    return db
      .select({ ...rowColumns(today), ...(extra ?? ({} as Extra)) })
      .from(p)
      .innerJoin(reformes, eq(reformes.id, p.reforme_id))
      .leftJoin(structures, eq(structures.id, p.structure_id))
      .leftJoin(natures, eq(natures.id, p.nature_id))
      .where(where)
      .orderBy(asc(p.status_rank), asc(p.date_fin), asc(p.reforme_id))
      .$dynamic();
  }

  return {
    /**
     * Every row of the overview with the filters applied, in batches read by keyset (status, end date, id: the
     * order index), so an export of 100 000 reforms holds one batch in memory and never pays a deep offset.
     */
    async *batches(auth: AuthContext, filters: PortfolioFilters, size = EXPORT_BATCH): AsyncGenerator<PortfolioRow[]> {
      const today = await refreshed();
      const where = filtered(auth, filters);
      let after: { rank: number; dateFin: string; id: number } | undefined;
      for (;;) {
        const keyset = after
          ? sql`(${p.status_rank}, ${p.date_fin}, ${p.reforme_id}) > (${after.rank}, ${after.dateFin}::date, ${after.id})`
          : undefined;
        const rows = await rowsOf(today, and(where, keyset)).limit(size);
        if (rows.length === 0) return;
        yield rows;
        const last = rows[rows.length - 1];
        after = { rank: PORTFOLIO_STATUS_VALUES.indexOf(last.status), dateFin: last.date_fin, id: last.id };
        if (rows.length < size) return;
      }
    },

    /**
     * One page, most urgent first, with its true total, at first-page cost whatever its number (db/lists): the
     * statuses whose day has passed are recomputed (`portfolio_prepare`, the list's version) in the page's statement.
     */
    page: (auth: AuthContext, filters: PortfolioFilters, { page, per_page = 10 }: PageQuery) =>
      keptPage(db, {
        list: filters.search ? progressWithReformesList : progressList,
        name: 'portfolio',
        where: filtered(auth, filters),
        order: 'lateness',
        loadRows: (at) => rowsOf(at.param('today'), at.inPage, { version: at.version }),
        page,
        pageSize: per_page,
        params: { today: todayOf(now()) },
      }),

    /** How many reforms stand at each status, within the scope and the filters (the status filter aside). */
    async counts(auth: AuthContext, { status: _status, ...filters }: PortfolioFilters): Promise<PortfolioCounts> {
      await refreshed();
      const rows = await countsBy(auth, filters);
      const counts = Object.fromEntries(PORTFOLIO_STATUS_VALUES.map((value) => [value, 0])) as PortfolioCounts;
      for (const row of rows) if (Object.hasOwn(counts, row.status)) counts[row.status as keyof PortfolioCounts] = row.total;
      return counts;
    },
  };
}
export type PortfolioService = ReturnType<typeof createPortfolioService>;
