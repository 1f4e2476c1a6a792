import {
  PORTFOLIO_STATUS_VALUES,
  type PortfolioCounts,
  type PortfolioFilters,
  type PortfolioRow,
  type PortfolioStatus,
  seesAllStructures,
} from '@reformes/domain';
import { and, asc, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { natures, portfolioCounts, reformeProgress, reformes, structures } from '../../db/schema/index.ts';
import type { AuthContext } from '../../http/guard.ts';
import { type PageQuery, pageOf } from '../../http/pagination.ts';
import {
  type AnchoredList,
  anchorsOf,
  builtOnce,
  keptAnchorsOf,
  pagePlaceholders,
  pageStart,
  pageValues,
  startKind,
} from '../reformes/page-anchors.ts';
import { reformeSearch } from '../reformes/reforme-pages.ts';
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

  /** The statuses whose day has passed recomputed, and the version of reforme_progress after that (migration 0014). */
  async function prepared(): Promise<{ version: string }> {
    const [{ version }] = (await db.execute<{ version: string }>(sql`select portfolio_prepare(${todayOf(now())}::date) as version`)).rows;
    return { version };
  }

  /** The overview in its order, for its page anchors: on reforme_progress alone unless a text is searched. */
  function portfolioList(where: SQL | undefined, searched: boolean): AnchoredList {
    const { sql: text, params } = db.select({ id: p.reforme_id }).from(p).where(where).toSQL();
    const from = searched ? sql`from ${p} inner join ${reformes} on ${reformes.id} = ${p.reforme_id}` : sql`from ${p}`;
    return {
      key: `portfolio|${text}|${JSON.stringify(params)}`,
      keyColumns: [sql`${p.status_rank}::text`, sql`${p.date_fin}::text`, sql`${p.reforme_id}::text`],
      from: sql`${from} where ${where ?? sql`true`}`,
      orderBy: sql`${p.status_rank}, ${p.date_fin}, ${p.reforme_id}`,
      atOrAfter: ([rank, dateFin, id]) =>
        sql`(${p.status_rank}, ${p.date_fin}, ${p.reforme_id}) >= (${rank}::smallint, ${dateFin}::date, ${id}::int)`,
    };
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
  function rowsOf(today: string, where: SQL | undefined) {
    return db
      .select(rowColumns(today))
      .from(p)
      .innerJoin(reformes, eq(reformes.id, p.reforme_id))
      .leftJoin(structures, eq(structures.id, p.structure_id))
      .leftJoin(natures, eq(natures.id, p.nature_id))
      .where(where)
      .orderBy(asc(p.status_rank), asc(p.date_fin), asc(p.reforme_id))
      .$dynamic();
  }

  /** The overview's rows and, in the same statement, the version `portfolio_prepare` returns (run once). */
  function rowsWithVersionOf(today: string | Placeholder, where: SQL | undefined) {
    return db
      .select({ ...rowColumns(today), version: sql<string>`(select portfolio_prepare(${today}::date))`.as('version') })
      .from(p)
      .innerJoin(reformes, eq(reformes.id, p.reforme_id))
      .leftJoin(structures, eq(structures.id, p.structure_id))
      .leftJoin(natures, eq(natures.id, p.nature_id))
      .where(where)
      .orderBy(asc(p.status_rank), asc(p.date_fin), asc(p.reforme_id));
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
     * One page, most urgent first, with its true total. The list's page anchors (kept until reforme_progress
     * changes) give the total and the keyset the page starts from: page 10 000 costs what page 1 costs. The ids
     * come from the order index first, then the rows of those ids only.
     */
    async page(auth: AuthContext, filters: PortfolioFilters, { page, per_page = 10 }: PageQuery) {
      const today = todayOf(now());
      const where = filtered(auth, filters);
      const list = portfolioList(where, Boolean(filters.search));
      const offset = (page - 1) * per_page;
      const idsFrom = (from: SQL | undefined, limit: number | Placeholder, skip: number | Placeholder) => {
        const query = db.select({ id: p.reforme_id }).from(p).$dynamic();
        if (filters.search) query.innerJoin(reformes, eq(reformes.id, p.reforme_id));
        return query.where(and(where, from)).orderBy(asc(p.status_rank), asc(p.date_fin), asc(p.reforme_id)).limit(limit).offset(skip);
      };
      // With anchors kept: the refresh, the version, the page's ids and its rows in one statement (built once per list
      // and kind of start), used when the version is the anchors' (the page's snapshot then holds the rows they were
      // built from); else anchors first.
      const kept = keptAnchorsOf(db, list);
      if (kept) {
        const start = pageStart(list, kept.anchors, offset);
        const statement = builtOnce(db, `portfolio|${startKind(start)}|${list.key}`, () => {
          const at = pagePlaceholders(list, start);
          return rowsWithVersionOf(sql.placeholder('today'), sql`${p.reforme_id} in (${idsFrom(at.where, at.limit, at.skip)})`).prepare('');
        });
        const rows = await statement.execute({ ...pageValues(start, per_page), today });
        if (rows.length > 0 && rows[0].version === kept.version) {
          return pageOf(
            rows.map(({ version: _version, ...row }): PortfolioRow => row),
            kept.anchors.total,
            page,
            per_page,
          );
        }
      }
      const anchors = await anchorsOf(db, list, (await prepared()).version);
      const start = pageStart(list, anchors, offset);
      const ids = offset >= anchors.total ? [] : (await idsFrom(start.where, per_page, start.skip)).map((row) => row.id);
      const rows: PortfolioRow[] = ids.length === 0 ? [] : await rowsOf(today, inArray(p.reforme_id, ids));
      return pageOf(rows, anchors.total, page, per_page);
    },

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
