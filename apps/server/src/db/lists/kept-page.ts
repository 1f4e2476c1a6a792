import { type PageOf, WHOLE_LIST_MAX } from '@reformes/domain';
import { and, asc, type Column, desc, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../client.ts';
import {
  type AnchoredList,
  anchorsOf,
  builtOnce,
  keptAnchorsOf,
  type PageStart,
  pagePlaceholders,
  pageStart,
  pageValues,
  startKind,
} from './anchors.ts';

/** A value of the list's `params`: a placeholder in a statement built once, the value itself elsewhere. */
export type ListParam = (name: string) => Placeholder | string;

/** An order a list is paged in: its key columns (the last one unique), each with the type its anchor's text is read as. */
export interface ListOrder {
  direction: 'asc' | 'desc';
  keys: ReadonlyArray<{ column: Column; type: string }>;
}

/**
 * What paged lists read (sources.ts): a table (or joined tables) with the id of its rows, the orders its lists are
 * paged in (each served by an index), and its version: an expression whose value moves with every write that can
 * change a list of it, read outside any snapshot (a sequence).
 */
export interface ListSource<Order extends string> {
  name: string;
  /** What follows `from`: a table, or tables joined. */
  from: SQL;
  id: Column;
  orders: Record<Order, ListOrder>;
  version: (param: ListParam) => SQL;
}

/** What a list's row loader is given to select the rows of a page, built once per list, loader and kind of start. */
export interface PageRowsAt {
  /** `id in (…the page's ids…)`: its `where`. */
  inPage: SQL;
  /** The list's version as the column `version`, to select beside the row's own columns. */
  version: SQL.Aliased<string>;
  /** The list's order, for its `order by`: the rows come back in it. */
  orderBy: SQL[];
  /** The list's `params`, as placeholders. */
  param: (name: string) => Placeholder;
}

/** A Drizzle select, `.prepare('')`d once by the engine. */
export interface Preparable<Row> {
  prepare(name: string): { execute(values: Record<string, unknown>): Promise<Row[]> };
}

export interface KeptPageSpec<Order extends string, Row extends { version: string }> {
  /** The source the list reads (sources.ts). */
  list: ListSource<Order>;
  /** Names the row loader among the lists of the same source: statements are kept under it. */
  name: string;
  /** The list's conditions. */
  where: SQL | undefined;
  order: Order;
  /** The select of a page's rows: `where(at.inPage)`, `at.version` among its columns, `orderBy(...at.orderBy)`. */
  loadRows: (at: PageRowsAt) => Preparable<Row>;
  page: number;
  /** Rows per page; none: the whole list while it holds at most WHOLE_LIST_MAX rows, then pages of that many. */
  pageSize: number | undefined;
  /** Values the source's version or the loader read as `param(name)` (the portfolio's `today`). */
  params?: Record<string, string>;
}

export type Page<Row> = PageOf<Row>;

/** A page of the list envelope: `pageOf(rows, total, 2, 10)` gives `{data, current_page: 2, per_page: 10, total, last_page}`. */
export function pageOf<T>(data: T[], total: number, page: number, perPage: number): Page<T> {
  return { data, current_page: page, per_page: perPage, total, last_page: lastPageOf(total, perPage) };
}

/** The last page of `total` rows by pages of `perPage`: 1 for an empty list. */
export function lastPageOf(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

const dialect = new PgDialect({ casing: 'snake_case' });

const orderByOf = ({ direction, keys }: ListOrder) => keys.map(({ column }) => (direction === 'desc' ? desc(column) : asc(column)));

/** The list in its order, for its page anchors (anchors.ts): lists with the same source, conditions and order share them. */
function anchoredList<Order extends string>(source: ListSource<Order>, where: SQL | undefined, order: Order): AnchoredList {
  const { direction, keys } = source.orders[order];
  const from = sql`from ${source.from} where ${where ?? sql`true`}`;
  const { sql: text, params } = dialect.sqlToQuery(from);
  const columns = sql.join(
    keys.map(({ column }) => sql`${column}`),
    sql`, `,
  );
  return {
    key: `${source.name}|${order}|${text}|${JSON.stringify(params)}`,
    keyColumns: keys.map(({ column }) => sql`${column}::text`),
    from,
    orderBy: sql.join(orderByOf(source.orders[order]), sql`, `),
    atOrAfter: (key) => {
      const values = sql.join(
        keys.map(({ type }, index) => sql`${key[index]}::${sql.raw(type)}`),
        sql`, `,
      );
      return direction === 'desc' ? sql`(${columns}) <= (${values})` : sql`(${columns}) >= (${values})`;
    },
  };
}

const firstRows: PageStart = { where: undefined, key: undefined, skip: 0 };

/**
 * A page of a list with its true total, at first-page cost whatever its number: the one entry point of paged lists.
 *
 * The list's page anchors (anchors.ts: its total and the order key of every 100th row, kept until the source's
 * version moves) say where the page starts; its ids are read by keyset from the nearest anchor, skipping fewer than
 * 100 rows, and its rows (`loadRows`) for those ids only, in one statement with the source's version, built once per
 * list, loader and kind of start (`builtOnce`). While the anchors are kept, that statement alone answers, and is used
 * when the version it read is the anchors' (its snapshot then holds the rows they were built from); otherwise the
 * version is read, the anchors built (or found) for it, and the page read from them.
 */
export async function keptPage<Order extends string, Row extends { version: string }>(
  db: Db,
  spec: KeptPageSpec<Order, Row> & { pageSize: number },
): Promise<Page<Omit<Row, 'version'>>>;
export async function keptPage<Order extends string, Row extends { version: string }>(
  db: Db,
  spec: KeptPageSpec<Order, Row>,
): Promise<Array<Omit<Row, 'version'>> | Page<Omit<Row, 'version'>>>;
export async function keptPage<Order extends string, Row extends { version: string }>(
  db: Db,
  { list: source, name, where, order, loadRows, page, pageSize, params = {} }: KeptPageSpec<Order, Row>,
): Promise<Array<Omit<Row, 'version'>> | Page<Omit<Row, 'version'>>> {
  const list = anchoredList(source, where, order);
  const read = (start: PageStart, limit: number) => {
    const statement = builtOnce(db, `${name}|${startKind(start)}|${list.key}`, () => {
      const at = pagePlaceholders(list, start);
      const ids = sql`select ${source.id} from ${source.from} where ${and(where, at.where) ?? sql`true`} order by ${list.orderBy} limit ${at.limit} offset ${at.skip}`;
      return loadRows({
        inPage: sql`${source.id} in (${ids})`,
        version: sql<string>`${source.version(sql.placeholder)}`.as('version'),
        orderBy: orderByOf(source.orders[order]),
        param: sql.placeholder,
      }).prepare('');
    });
    return statement.execute({ ...params, ...pageValues(start, limit) });
  };
  const rowsOf = (found: Row[]) => found.map(({ version: _version, ...row }) => row);

  let perPage = pageSize;
  if (!perPage) {
    // Asked for whole: the list while it holds at most WHOLE_LIST_MAX rows, else pages of that many with their total.
    if (page === 1) {
      const whole = await read(firstRows, WHOLE_LIST_MAX + 1);
      if (whole.length <= WHOLE_LIST_MAX) return rowsOf(whole);
    }
    perPage = WHOLE_LIST_MAX;
  }
  const offset = (page - 1) * perPage;
  const kept = pageSize ? keptAnchorsOf(db, list) : undefined;
  if (kept) {
    const found = await read(pageStart(list, kept.anchors, offset), perPage);
    if (found.length > 0 && found[0].version === kept.version) return pageOf(rowsOf(found), kept.anchors.total, page, perPage);
  }
  const [{ version }] = (await db.execute<{ version: string }>(sql`select ${source.version((key) => params[key])} as version`)).rows;
  const anchors = await anchorsOf(db, list, version);
  const found = offset >= anchors.total ? [] : await read(pageStart(list, anchors, offset), perPage);
  return pageOf(rowsOf(found), anchors.total, page, perPage);
}

/** The rows of a list or page changed by `map` (nested, completed): `mapRows(await keptPage(…), nest)`. */
export async function mapRows<Row, Out>(found: Page<Row>, map: (rows: Row[]) => Out[] | Promise<Out[]>): Promise<Page<Out>>;
export async function mapRows<Row, Out>(found: Row[] | Page<Row>, map: (rows: Row[]) => Out[] | Promise<Out[]>): Promise<Out[] | Page<Out>>;
export async function mapRows<Row, Out>(
  found: Row[] | Page<Row>,
  map: (rows: Row[]) => Out[] | Promise<Out[]>,
): Promise<Out[] | Page<Out>> {
  if (Array.isArray(found)) return map(found);
  return { ...found, data: await map(found.data) };
}
