import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';

/** Rows between two anchors: the most any page skips, whatever its number. */
export const ANCHOR_STEP = 100;
/** Anchors kept per database (all lists together), the oldest list forgotten first: 20 lists of 100 000 rows, ~2 MB. */
const ANCHORS_KEPT = 20_000;

/**
 * Where a list's pages start: its total, and the order key of every `ANCHOR_STEP`-th row (row 0, 100, 200…), as
 * text the database parses back exactly (a timestamp's text keeps its microseconds, a number's its digits).
 */
export interface Anchors {
  total: number;
  keys: string[][];
}

export interface Kept {
  version: string;
  anchors: Anchors;
}

const kept = new WeakMap<Db, Map<string, Kept>>();
const building = new WeakMap<Db, Map<string, Promise<Anchors>>>();
const sizeOf = (anchors: Anchors) => anchors.keys.length + 1;

/** A list in one order, by keyset (built by kept-page.ts from a list's source, conditions and order). */
export interface AnchoredList {
  /** Names the list and its conditions: lists with the same key share their anchors. */
  key: string;
  /** The order key of each row as text columns, in order (`[sql\`date_enreg::text\`, sql\`id::text\`]`). */
  keyColumns: SQL[];
  /** `from … where …` of the list. */
  from: SQL;
  /** The list's `order by` (without the words). */
  orderBy: SQL;
  /**
   * The condition "at or after this anchor in list order", from the anchor's key: its texts, or placeholders for
   * them in a statement built once (kept-page.ts).
   */
  atOrAfter: (key: ReadonlyArray<string | Placeholder>) => SQL;
}

/**
 * Page positions of a list, remembered until `version` moves: built in one pass over the list's index (its
 * total, and the order key of every ANCHOR_STEP-th row), then any page is read by keyset from the anchor at
 * or before it, skipping fewer than ANCHOR_STEP rows. Page 5 000 costs what page 1 costs.
 *
 * `version` is read by the caller before this is called, from a counter every write to the list's tables
 * moves (a sequence, outside transactions). Anchors are kept only when no transaction was in flight in the
 * snapshot that built them: a write that moved the version before it was read was then committed and seen,
 * and any later write moves the version past the one kept. A search is a list like any other: its own anchors, its own total.
 */
export async function anchorsOf(db: Db, list: AnchoredList, version: string): Promise<Anchors> {
  const lists = kept.get(db) ?? new Map<string, Kept>();
  kept.set(db, lists);
  const hit = lists.get(list.key);
  if (hit?.version === version) return hit.anchors;
  // Requests that arrive while the anchors of this version are being built wait for that one build.
  const pending = building.get(db) ?? new Map<string, Promise<Anchors>>();
  building.set(db, pending);
  const buildKey = `${version}|${list.key}`;
  const running = pending.get(buildKey);
  if (running) return running;
  const build = buildAnchors(db, list, version, lists).finally(() => pending.delete(buildKey));
  pending.set(buildKey, build);
  return build;
}

async function buildAnchors(db: Db, list: AnchoredList, version: string, lists: Map<string, Kept>): Promise<Anchors> {
  const named = sql.join(
    list.keyColumns.map((column, index) => sql`${column} as ${sql.raw(`k${index}`)}`),
    sql`, `,
  );
  const keys = sql.raw(list.keyColumns.map((_, index) => `t.k${index}`).join(', '));
  const [row] = (
    await db.execute<{ total: number; keys: string[][] | null; in_flight: number }>(sql`
      select count(*)::int as total,
        json_agg(json_build_array(${keys}) order by t.position) filter (where t.position % ${ANCHOR_STEP} = 0) as keys,
        (select count(*) from pg_snapshot_xip(pg_current_snapshot()))::int as in_flight
      from (select ${named}, row_number() over (order by ${list.orderBy}) - 1 as position ${list.from}) t`)
  ).rows;
  const anchors: Anchors = { total: row.total, keys: row.keys ?? [] };
  lists.delete(list.key);
  if (row.in_flight === 0) {
    lists.set(list.key, { version, anchors });
    let size = [...lists.values()].reduce((sum, entry) => sum + sizeOf(entry.anchors), 0);
    for (const [key, entry] of lists) {
      if (size <= ANCHORS_KEPT || key === list.key) break;
      lists.delete(key);
      size -= sizeOf(entry.anchors);
    }
  }
  return anchors;
}

/**
 * The anchors kept for a list and the version they hold for, whatever it is now. A caller reads the current
 * version in the same statement as its page and uses the page only if the versions match: one round trip
 * instead of two while nothing changes.
 */
export function keptAnchorsOf(db: Db, list: AnchoredList): Kept | undefined {
  return kept.get(db)?.get(list.key);
}

/**
 * The `where` that starts a page at `offset`: the anchor at or before it, and how many rows to skip after it
 * (fewer than ANCHOR_STEP).
 */
export interface PageStart {
  where: SQL | undefined;
  /** The anchor's key, when the page starts at one. */
  key: string[] | undefined;
  skip: number;
}

export function pageStart(list: AnchoredList, anchors: Anchors, offset: number): PageStart {
  const index = Math.min(Math.floor(offset / ANCHOR_STEP), anchors.keys.length - 1);
  if (index <= 0) return { where: undefined, key: undefined, skip: offset };
  const key = anchors.keys[index];
  return { where: list.atOrAfter(key), key, skip: offset - index * ANCHOR_STEP };
}

/** A statement of kept pages, built once: values for its placeholders in, rows out. */
export interface BuiltStatement {
  execute(values: Record<string, unknown>): Promise<unknown[]>;
}

/** Built statements kept per database, the oldest forgotten first: a few lists (each role's, the public page) serve most requests. */
const BUILT_KEPT = 64;
const builtStatements = new WeakMap<Db, Map<string, BuiltStatement>>();

/**
 * The statement of a kept page, built on first use and kept under `key` (the list's key, the caller's select, the
 * kind of start): building a select of some 35 columns and 3 joins was a tenth of a list request's CPU
 * (docs/performance.md). `build` gets the page's start as placeholders (`pagePlaceholders`) and returns a Drizzle
 * query `.prepare('')`d: the empty name is PostgreSQL's unnamed statement, which db/prepared-statements.ts names after
 * its text like any other.
 */
export function builtOnce<S extends BuiltStatement>(db: Db, key: string, build: () => S): S {
  const built = builtStatements.get(db) ?? new Map<string, BuiltStatement>();
  builtStatements.set(db, built);
  let statement = built.get(key) as S | undefined;
  if (!statement) {
    statement = build();
    built.set(key, statement);
    if (built.size > BUILT_KEPT) built.delete(built.keys().next().value as string);
  }
  return statement;
}

/** The kind of a page's start, for `builtOnce`'s key: its statement has an anchor's condition or none. */
export const startKind = (start: PageStart) => (start.key ? 'anchor' : 'first');

/**
 * A page's start as placeholders, inside `builtOnce`'s `build` (not on every request): `where` from `k0`, `k1`… if
 * it starts at an anchor.
 */
export function pagePlaceholders(list: AnchoredList, start: PageStart) {
  return {
    where: start.key ? list.atOrAfter(start.key.map((_, index) => sql.placeholder(`k${index}`))) : undefined,
    limit: sql.placeholder('limit'),
    skip: sql.placeholder('skip'),
  };
}

/** The values of `pagePlaceholders` for this page. */
export function pageValues(start: PageStart, limit: number): Record<string, unknown> {
  const values: Record<string, unknown> = { limit, skip: start.skip };
  for (const [index, key] of (start.key ?? []).entries()) values[`k${index}`] = key;
  return values;
}
