import { type ReformeFilters, seesAllStructures } from '@reformes/domain';
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reformeCounts, reformes } from '../../db/schema/index.ts';
import type { Page } from '../../http/envelope.ts';
import type { AuthContext } from '../../http/guard.ts';
import { listOrPage, type PageQuery, pageOf } from '../../http/pagination.ts';
import { matchesFoldedColumn } from '../../http/search.ts';
import { type AnchoredList, type Anchors, anchorsOf, keptAnchorsOf, pageStart } from './page-anchors.ts';

/** The columns that both `reformes` and the counters of `reforme_counts` carry. */
type CountedColumn = 'structure_id' | 'nature_id' | 'couverture_id' | 'typeref' | 'stage' | 'is_published' | 'is_active';
const onReformes = {
  structure_id: reformes.structure_id,
  nature_id: reformes.nature_id,
  couverture_id: reformes.couverture_id,
  typeref: reformes.typeref,
  stage: reformes.stage,
  is_published: reformes.isPublished,
  is_active: reformes.is_active,
};

/**
 * The conditions of a reform list: equalities on counted columns (scope, structure, nature, coverage,
 * type, stage, published, active), and anything else (text, creator). A list with no other condition is counted from the trigger-kept counters: an
 * exact total for the price of a few dozen rows instead of a walk over every matching reform.
 */
export interface ReformeConditions {
  counted: ReadonlyArray<readonly [CountedColumn, number | boolean | string]>;
  other: Array<SQL | undefined>;
}

/** saisie and validation see their structure's reforms only (architecture §4), as a counted condition. */
export function scopeCondition(auth: AuthContext): ReformeConditions['counted'] {
  return seesAllStructures(auth.role) ? [] : [['structure_id', auth.structureId] as const];
}

/** The reform search (spec §3 "Local search filter"): one column of folded texts and ISO dates, trigram-indexed. */
export function reformeSearch(text: string): SQL | undefined {
  return matchesFoldedColumn(reformes.search_text, text);
}

/** A list's filters (structure, nature, coverage, type, text) on top of its own conditions. */
export function filterConditions(
  filters: ReformeFilters,
  counted: ReformeConditions['counted'],
  other: SQL[] = [],
  search: (text: string) => SQL | undefined = reformeSearch,
): ReformeConditions {
  return {
    counted: [
      ...counted,
      ...(filters.structure_id ? [['structure_id', filters.structure_id] as const] : []),
      ...(filters.nature_id ? [['nature_id', filters.nature_id] as const] : []),
      ...(filters.couverture_id ? [['couverture_id', filters.couverture_id] as const] : []),
      ...(filters.typeref ? [['typeref', filters.typeref] as const] : []),
    ],
    other: [...other, filters.search ? search(filters.search) : undefined],
  };
}

/** The conditions as a `where` on `reformes`. */
export function reformeWhere({ counted, other }: ReformeConditions): SQL | undefined {
  return and(...counted.map(([column, value]) => eq(onReformes[column], value)), ...other);
}

/** The exact number of reforms meeting the conditions: from the counters when they are all counted ones. */
export async function countReformes(db: Db, conditions: ReformeConditions): Promise<number> {
  if (conditions.other.every((condition) => condition === undefined)) {
    const [{ total }] = await db
      .select({ total: sql<number>`coalesce(sum(${reformeCounts.total}), 0)::int` })
      .from(reformeCounts)
      .where(and(...conditions.counted.map(([column, value]) => eq(reformeCounts[column], value))));
    return total;
  }
  return searchCount(db, reformeWhere(conditions));
}

/** Searches remembered per database, at most this many (the oldest forgotten first). */
const SEARCH_COUNTS_KEPT = 500;
const searchCounts = new WeakMap<Db, Map<string, { version: string; total: number }>>();

/**
 * The exact count of a searched list, remembered until the next write to `reformes`: paging through a
 * search, or several users searching the same words, count once. The version (a sequence that every
 * write statement bumps, migration 0003) is read before the count, and a count is kept only if no
 * transaction was in flight in its snapshot: a write that bumped the version before that read was then
 * committed and counted, and any later write moves the version past the one kept.
 */
async function searchCount(db: Db, where: SQL | undefined): Promise<number> {
  const query = db.select({ total: count() }).from(reformes).where(where);
  const { sql: text, params } = query.toSQL();
  const key = `${text}|${JSON.stringify(params)}`;
  const kept = searchCounts.get(db) ?? new Map<string, { version: string; total: number }>();
  searchCounts.set(db, kept);
  const version = await reformesVersion(db);
  const hit = kept.get(key);
  if (hit?.version === version) return hit.total;
  const [{ total, in_flight }] = (
    await db.execute<{ total: number; in_flight: number }>(
      sql`select (${query})::int as total, (select count(*) from pg_snapshot_xip(pg_current_snapshot()))::int as in_flight`,
    )
  ).rows;
  kept.delete(key);
  if (in_flight === 0) {
    kept.set(key, { version, total });
    if (kept.size > SEARCH_COUNTS_KEPT) kept.delete(kept.keys().next().value as string);
  }
  return total;
}

/** The counter every write statement on `reformes` moves (migration 0003), read outside any snapshot. */
const REFORMES_VERSION = sql`(select last_value::text || ':' || is_called::text from reformes_version)`;

async function reformesVersion(db: Db): Promise<string> {
  const [{ version }] = (await db.execute<{ version: string }>(sql`select ${REFORMES_VERSION} as version`)).rows;
  return version;
}

/** A reform list in the lists' order (newest registration first), for its page anchors. */
function reformeList(db: Db, where: SQL | undefined): AnchoredList {
  const { sql: text, params } = db.select({ id: reformes.id }).from(reformes).where(where).toSQL();
  return {
    key: `reformes|${text}|${JSON.stringify(params)}`,
    keyColumns: [sql`${reformes.date_enreg}::text`, sql`${reformes.id}::text`],
    from: sql`from ${reformes} where ${where ?? sql`true`}`,
    orderBy: sql`${reformes.date_enreg} desc, ${reformes.id} desc`,
    atOrAfter: ([date, id]) => sql`(${reformes.date_enreg}, ${reformes.id}) <= (${date}::timestamptz, ${Number(id)}::int)`,
  };
}

/**
 * One page of reform ids in the lists' order (newest registration first) with the true total. The list's
 * page anchors (page-anchors.ts, kept until the next write to `reformes`) give the total and where the page
 * starts; the ids are then read by keyset from the index, skipping fewer than ANCHOR_STEP entries, so page
 * 10 000 costs what page 1 costs.
 */
export async function reformeIdPage(db: Db, conditions: ReformeConditions, query: PageQuery): Promise<number[] | Page<number>> {
  const where = reformeWhere(conditions);
  const list = reformeList(db, where);
  const ids = (limit: number, offset: number, from?: SQL) =>
    db
      .select({ id: reformes.id })
      .from(reformes)
      .where(and(where, from))
      .orderBy(desc(reformes.date_enreg), desc(reformes.id))
      .limit(limit)
      .offset(offset);
  // A page of a list whose anchors are kept: the page and the version in one statement, used when the version
  // has not moved since the anchors were built (the page's snapshot then holds the rows they were built from).
  const kept = query.per_page ? keptAnchorsOf(db, list) : undefined;
  if (query.per_page && kept) {
    const offset = (query.page - 1) * query.per_page;
    const start = pageStart(list, kept.anchors, offset);
    const [{ version, page }] = (
      await db.execute<{ version: string; page: number[] }>(
        sql`select ${REFORMES_VERSION} as version, array(${ids(query.per_page, start.skip, start.where)}) as page`,
      )
    ).rows;
    if (version === kept.version) return pageOf(page, kept.anchors.total, query.page, query.per_page);
  }
  let anchors: Anchors | undefined;
  return listOrPage(
    query,
    async (limit, offset) => {
      if (!anchors) return (await ids(limit, offset)).map((row) => row.id);
      if (offset >= anchors.total) return [];
      const start = pageStart(list, anchors, offset);
      return (await ids(limit, start.skip, start.where)).map((row) => row.id);
    },
    async () => {
      anchors = await anchorsOf(db, list, await reformesVersion(db));
      return anchors.total;
    },
  );
}

/**
 * A page of a list whose anchors are kept, read in one statement: `rowsIn` selects the rows whose id is in the
 * page's ids (a subquery, keyset from the nearest anchor) in list order, with the list's version as a column. The
 * rows are used only when that version is the anchors' (the statement's snapshot then holds the rows they were built
 * from); undefined otherwise, or when the list has no kept anchors or the page is empty: `reformeIdPage` then.
 */
export async function keptReformePage<Row extends { version: string }>(
  db: Db,
  conditions: ReformeConditions,
  query: PageQuery,
  rowsIn: (ids: SQL, version: SQL) => Promise<Row[]>,
): Promise<Page<Omit<Row, 'version'>> | undefined> {
  if (!query.per_page) return undefined;
  const where = reformeWhere(conditions);
  const list = reformeList(db, where);
  const kept = keptAnchorsOf(db, list);
  if (!kept) return undefined;
  const start = pageStart(list, kept.anchors, (query.page - 1) * query.per_page);
  const ids = db
    .select({ id: reformes.id })
    .from(reformes)
    .where(and(where, start.where))
    .orderBy(desc(reformes.date_enreg), desc(reformes.id))
    .limit(query.per_page)
    .offset(start.skip);
  const rows = await rowsIn(sql`(${ids})`, REFORMES_VERSION);
  if (rows.length === 0 || rows[0].version !== kept.version) return undefined;
  return pageOf(
    rows.map(({ version: _version, ...row }) => row),
    kept.anchors.total,
    query.page,
    query.per_page,
  );
}

/** The page with its rows loaded: `withRows(page, rowsOf)`. */
export async function withRows<Row>(page: number[] | Page<number>, rowsOf: (ids: number[]) => Promise<Row[]>): Promise<Row[] | Page<Row>> {
  if (Array.isArray(page)) return rowsOf(page);
  return { ...page, data: await rowsOf(page.data) };
}
