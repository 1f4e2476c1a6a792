import { type ReformeFilters, seesAllStructures } from '@reformes/domain';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reformes } from '../../db/schema/index.ts';
import type { Page } from '../../http/envelope.ts';
import type { AuthContext } from '../../http/guard.ts';
import { listOrPage, type PageQuery, pageOf } from '../../http/pagination.ts';
import { matchesFoldedColumn } from '../../http/search.ts';
import {
  type AnchoredList,
  type Anchors,
  anchorsOf,
  builtOnce,
  keptAnchorsOf,
  pagePlaceholders,
  pageStart,
  pageValues,
  startKind,
} from './page-anchors.ts';

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
 * The conditions of a reform list: equalities on the columns the counters of `reforme_counts` also carry (scope,
 * structure, nature, coverage, type, stage, published, active), and anything else (text, creator). A list's total
 * comes from its page anchors (page-anchors.ts), built in the same pass as its page positions.
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

/** The counter every write statement on `reformes` moves (migration 0003), read outside any snapshot. */
const REFORMES_VERSION = sql`(select last_value::text || ':' || is_called::text from reformes_version)`;

async function reformesVersion(db: Db): Promise<string> {
  const [{ version }] = (await db.execute<{ version: string }>(sql`select ${REFORMES_VERSION} as version`)).rows;
  return version;
}

/**
 * The orders reform lists are paged in, newest first, each served by an index: registration for the back office's
 * lists, start date for the public page (reformes_published_idx).
 */
export type ReformeOrder = 'registration' | 'start';
const ORDER_KEYS = {
  registration: { column: reformes.date_enreg, type: sql.raw('timestamptz') },
  start: { column: reformes.date_debut, type: sql.raw('date') },
} as const;

/** `order by` of a reform list, for the queries that read a page's rows. */
export const reformeOrderBy = (order: ReformeOrder) => [desc(ORDER_KEYS[order].column), desc(reformes.id)] as const;

/** A reform list in one of its orders, for its page anchors. */
function reformeList(db: Db, where: SQL | undefined, order: ReformeOrder): AnchoredList {
  const { sql: text, params } = db.select({ id: reformes.id }).from(reformes).where(where).toSQL();
  const { column, type } = ORDER_KEYS[order];
  return {
    key: `reformes|${order}|${text}|${JSON.stringify(params)}`,
    keyColumns: [sql`${column}::text`, sql`${reformes.id}::text`],
    from: sql`from ${reformes} where ${where ?? sql`true`}`,
    orderBy: sql`${column} desc, ${reformes.id} desc`,
    atOrAfter: ([key, id]) => sql`(${column}, ${reformes.id}) <= (${key}::${type}, ${id}::int)`,
  };
}

/**
 * One page of reform ids in the list's order (newest registration first unless said) with the true total. The list's
 * page anchors (page-anchors.ts, kept until the next write to `reformes`) give the total and where the page
 * starts; the ids are then read by keyset from the index, skipping fewer than ANCHOR_STEP entries, so page
 * 10 000 costs what page 1 costs.
 */
export async function reformeIdPage(
  db: Db,
  conditions: ReformeConditions,
  query: PageQuery & { per_page: number },
  order?: ReformeOrder,
): Promise<Page<number>>;
export async function reformeIdPage(
  db: Db,
  conditions: ReformeConditions,
  query: PageQuery,
  order?: ReformeOrder,
): Promise<number[] | Page<number>>;
export async function reformeIdPage(
  db: Db,
  conditions: ReformeConditions,
  query: PageQuery,
  order: ReformeOrder = 'registration',
): Promise<number[] | Page<number>> {
  const where = reformeWhere(conditions);
  const list = reformeList(db, where, order);
  const ids = (limit: number, offset: number, from?: SQL) =>
    db
      .select({ id: reformes.id })
      .from(reformes)
      .where(and(where, from))
      .orderBy(...reformeOrderBy(order))
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
 * The rows of a kept page, as a caller selects them: `select(ids, version)` is the select of the rows whose id is in
 * `ids` (a subquery), in the list's order, with `version` as the column `version`; `name` names that select (its
 * columns and joins) among the callers.
 */
export interface PageRows<Row extends { version: string }> {
  name: string;
  select: (ids: SQL, version: SQL) => { prepare(name: string): { execute(values: Record<string, unknown>): Promise<Row[]> } };
}

/**
 * A page of a list whose anchors are kept, read in one statement: the rows whose id is in the page's ids (a subquery,
 * keyset from the nearest anchor) in the list's `order`, with the list's version as a column. The rows are used only
 * when that version is the anchors' (the statement's snapshot then holds the rows they were built from); undefined
 * otherwise, or when the list has no kept anchors or the page is empty: `reformeIdPage` then. The statement is built
 * once per list, caller and kind of start (`builtOnce`).
 */
export async function keptReformePage<Row extends { version: string }>(
  db: Db,
  conditions: ReformeConditions,
  query: PageQuery,
  rows: PageRows<Row>,
  order: ReformeOrder = 'registration',
): Promise<Page<Omit<Row, 'version'>> | undefined> {
  if (!query.per_page) return undefined;
  const where = reformeWhere(conditions);
  const list = reformeList(db, where, order);
  const kept = keptAnchorsOf(db, list);
  if (!kept) return undefined;
  const start = pageStart(list, kept.anchors, (query.page - 1) * query.per_page);
  const statement = builtOnce(db, `${rows.name}|${startKind(start)}|${list.key}`, () => {
    const at = pagePlaceholders(list, start);
    const ids = db
      .select({ id: reformes.id })
      .from(reformes)
      .where(and(where, at.where))
      .orderBy(...reformeOrderBy(order))
      .limit(at.limit)
      .offset(at.skip);
    return rows.select(sql`(${ids})`, REFORMES_VERSION).prepare('');
  });
  const found = await statement.execute(pageValues(start, query.per_page));
  if (found.length === 0 || found[0].version !== kept.version) return undefined;
  return pageOf(
    found.map(({ version: _version, ...row }) => row),
    kept.anchors.total,
    query.page,
    query.per_page,
  );
}

/** The page with its rows loaded: `withRows(page, rowsOf)`. */
export async function withRows<Row>(page: Page<number>, rowsOf: (ids: number[]) => Promise<Row[]>): Promise<Page<Row>>;
export async function withRows<Row>(page: number[] | Page<number>, rowsOf: (ids: number[]) => Promise<Row[]>): Promise<Row[] | Page<Row>>;
export async function withRows<Row>(page: number[] | Page<number>, rowsOf: (ids: number[]) => Promise<Row[]>): Promise<Row[] | Page<Row>> {
  if (Array.isArray(page)) return rowsOf(page);
  return { ...page, data: await rowsOf(page.data) };
}
