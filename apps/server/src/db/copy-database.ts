import type pg from 'pg';

/** What `copyDatabase` did with one table, read back on both sides. */
export interface TableCopy {
  table: string;
  rows: number;
  /** md5 over the md5 of every row's JSON, sorted: equal on both sides or nothing is kept. */
  checksum: string;
}

export class CopyMismatchError extends Error {
  constructor(readonly mismatches: Array<{ table: string; source: TableCheck; target: TableCheck }>) {
    super(
      `La copie ne correspond pas à la source (${mismatches.map((row) => row.table).join(', ')}) : rien n'a été enregistré dans la base cible.`,
    );
  }
}

interface TableCheck {
  rows: number;
  checksum: string;
}

const BATCH = 2_000;

/** Every session reads and writes values the same way, whatever the server's defaults. */
const SESSION = `set TimeZone = 'UTC'; set DateStyle = 'ISO, YMD'; set IntervalStyle = 'postgres'; set extra_float_digits = 1; set bytea_output = 'hex'`;

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The tables of the application (public schema), by name. */
async function tablesOf(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  return rows.map((row) => row.name);
}

/** The columns a copy writes: every one but the generated ones (search texts), which the target computes again. */
async function writableColumns(client: pg.ClientBase, table: string): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select column_name as name from information_schema.columns
     where table_schema = 'public' and table_name = $1 and is_generated = 'NEVER' order by ordinal_position`,
    [table],
  );
  return rows.map((row) => row.name);
}

/** Row count and an order-independent checksum of a table's written columns. */
async function checkTable(client: pg.ClientBase, table: string, columns: string[]): Promise<TableCheck> {
  const list = columns.map(quoted).join(', ');
  const { rows } = await client.query<{ rows: number; checksum: string }>(
    `select count(*)::int as rows, md5(coalesce(string_agg(h, '' order by h), '')) as checksum
     from (select md5(row_to_json(t)::text) as h from (select ${list} from ${quoted(table)}) t) hashed`,
  );
  return rows[0];
}

/** The rows of a table in batches, in physical order (keyset on ctid: the source is not written meanwhile). */
async function* readBatches(source: pg.ClientBase, table: string, columns: string[]): AsyncGenerator<string> {
  const list = columns.map(quoted).join(', ');
  let after = '(0,0)';
  for (;;) {
    const { rows } = await source.query<{ at: string; batch: string }>(
      `select (array_agg(at order by at desc))[1]::text as at, json_agg(t)::text as batch from (
         select ctid as at, ${list} from ${quoted(table)} where ctid > $1::tid order by ctid limit ${BATCH}
       ) t`,
      [after],
    );
    if (!rows[0]?.batch) return;
    yield rows[0].batch;
    after = rows[0].at;
  }
}

/**
 * Copies every table of `source` into `target`, which already has the same schema (the same migrations), in one
 * transaction on the target: its rows are replaced (what the migrations inserted included), triggers stay off while
 * rows arrive as they were (counters and progress rows are copied, not recomputed), sequences take the source's
 * values, then every table's row count and checksum are compared and the transaction commits only if all match.
 * `session_replication_role` needs a superuser (or, from PostgreSQL 15, a role granted that setting).
 */
export async function copyDatabase(
  source: pg.ClientBase,
  target: pg.ClientBase,
  onTable: (table: string, rows: number) => void = () => undefined,
): Promise<TableCopy[]> {
  await source.query(SESSION);
  await target.query(SESSION);
  const tables = (await tablesOf(source)).filter((table) => !table.startsWith('__'));
  const targetTables = new Set(await tablesOf(target));
  const missing = tables.filter((table) => !targetTables.has(table));
  if (missing.length > 0) throw new Error(`Tables absentes de la base cible : ${missing.join(', ')}.`);

  // The source is read in one snapshot: what is compared is what was copied.
  await source.query('begin transaction isolation level repeatable read read only');
  await target.query('begin');
  try {
    await target.query("set local session_replication_role = 'replica'");
    await target.query(`truncate ${tables.map(quoted).join(', ')}`);
    const copies: TableCopy[] = [];
    const mismatches: CopyMismatchError['mismatches'] = [];
    for (const table of tables) {
      const columns = await writableColumns(source, table);
      const list = columns.map(quoted).join(', ');
      for await (const batch of readBatches(source, table, columns)) {
        await target.query(
          `insert into ${quoted(table)} (${list}) overriding system value
           select ${list} from json_populate_recordset(null::${quoted(table)}, $1::json)`,
          [batch],
        );
      }
      const [expected, actual] = [await checkTable(source, table, columns), await checkTable(target, table, columns)];
      if (expected.rows !== actual.rows || expected.checksum !== actual.checksum)
        mismatches.push({ table, source: expected, target: actual });
      copies.push({ table, ...expected });
      onTable(table, expected.rows);
    }
    await copySequences(source, target);
    if (mismatches.length > 0) throw new CopyMismatchError(mismatches);
    await target.query('commit');
    return copies;
  } catch (error) {
    await target.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await source.query('rollback').catch(() => undefined);
  }
}

/** Each sequence of the target continues where the source's stands (next id included). */
async function copySequences(source: pg.ClientBase, target: pg.ClientBase): Promise<void> {
  const { rows } = await source.query<{ name: string; last: string | null }>(
    "select sequencename as name, last_value::text as last from pg_sequences where schemaname = 'public'",
  );
  for (const row of rows) {
    if (row.last === null) await target.query('select setval($1::regclass, 1, false)', [quoted(row.name)]);
    else await target.query('select setval($1::regclass, $2::bigint, true)', [quoted(row.name), row.last]);
  }
}

/**
 * Whether a database holds the application's data: an account or a reform. A database the migrations alone have
 * filled (reference lists, counters) holds none and may be overwritten.
 */
export async function holdsData(client: pg.ClientBase): Promise<boolean> {
  const tables = new Set(await tablesOf(client));
  for (const table of ['users', 'reformes']) {
    if (tables.has(table) && (await client.query(`select 1 from ${quoted(table)} limit 1`)).rowCount) return true;
  }
  return false;
}
