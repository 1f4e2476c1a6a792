import type pg from 'pg';

/** What `copyDatabase` did with one table, read back on both sides. */
export interface TableCopy {
  table: string;
  rows: number;
  /** md5 over the md5 of every row's JSON, sorted: equal on both sides or nothing is kept. */
  checksum: string;
}

export interface TableCheck {
  rows: number;
  checksum: string;
}

export class CopyMismatchError extends Error {
  constructor(readonly mismatches: Array<{ table: string; source: TableCheck; target: TableCheck }>) {
    super(
      `La copie ne correspond pas à la source (${mismatches.map((row) => row.table).join(', ')}) : rien n'a été enregistré dans la base cible.`,
    );
  }
}

/** One table on its way into a target: from another database (`readTables`) or from a dump (logical-dump.ts). */
export interface TableStream {
  table: string;
  /** The columns its rows carry; the target's other columns take their defaults. */
  columns: string[];
  /** Its rows, a JSON array of objects per batch (`json_populate_recordset`'s input). */
  batches: AsyncIterable<string>;
  /** The row count and checksum the table must read back as; asked once its batches are consumed. */
  expected(): Promise<TableCheck>;
}

/** A sequence's `last_value`, null when it was never used. */
export interface SequenceValue {
  name: string;
  value: string | null;
}

/** What `writeDatabase` writes: the tables one after the other, then the sequences (asked once every table is consumed). */
export interface DatabaseStream {
  tables: AsyncIterable<TableStream>;
  sequences(): Promise<SequenceValue[]>;
}

/** Rows per batch: a few hundred keep one batch (one line of a dump) small whatever the table's size. */
const BATCH = 500;

/**
 * Both sides read and write values the same way, whatever the server's or the role's defaults: `local`, so that a
 * client checked out of the app's pool goes back to it unchanged.
 */
const SETTINGS = `set local TimeZone = 'UTC'; set local DateStyle = 'ISO, YMD'; set local IntervalStyle = 'postgres';
  set local extra_float_digits = 1; set local bytea_output = 'hex'; set local search_path = public`;

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

/**
 * The rows of a table in batches, through a cursor in the snapshot's transaction: one pass over the table whatever
 * its size (a keyset on ctid sorted the rest of the table again for every batch: 85 s instead of 6 s for five times
 * the rows). Each batch is one line of text: `row_to_json` writes no line break.
 */
async function* readBatches(source: pg.ClientBase, table: string, columns: string[]): AsyncGenerator<string> {
  const list = columns.map(quoted).join(', ');
  const cursor = 'reformes_copy_rows';
  await source.query(
    `declare ${cursor} no scroll cursor for select row_to_json(r)::text as row from (select ${list} from ${quoted(table)}) r`,
  );
  try {
    for (;;) {
      const { rows } = await source.query<{ row: string }>(`fetch ${BATCH} from ${cursor}`);
      if (rows.length === 0) return;
      yield `[${rows.map((row) => row.row).join(',')}]`;
    }
  } finally {
    await source.query(`close ${cursor}`).catch(() => undefined);
  }
}

/**
 * Opens on `source` the one repeatable-read, read-only snapshot that `readTables` needs: what is checked is what was
 * read, while the app keeps writing. `endSnapshot` closes it.
 */
export async function beginSnapshot(source: pg.ClientBase): Promise<void> {
  await source.query('begin transaction isolation level repeatable read read only');
  await source.query(SETTINGS);
}

export async function endSnapshot(source: pg.ClientBase): Promise<void> {
  await source.query('rollback').catch(() => undefined);
}

/** Every table of the application, inside a snapshot opened by `beginSnapshot`, with its expected check. */
export async function* readTables(source: pg.ClientBase): AsyncGenerator<TableStream> {
  for (const table of (await tablesOf(source)).filter((name) => !name.startsWith('__'))) {
    const columns = await writableColumns(source, table);
    yield { table, columns, batches: readBatches(source, table, columns), expected: () => checkTable(source, table, columns) };
  }
}

export async function readSequences(source: pg.ClientBase): Promise<SequenceValue[]> {
  const { rows } = await source.query<SequenceValue>(
    "select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by sequencename",
  );
  return rows;
}

/** The user triggers that fire today (`tgenabled = 'O'`): only those are switched off, then on again. */
async function enabledTriggers(client: pg.ClientBase): Promise<Array<{ table: string; name: string }>> {
  const { rows } = await client.query<{ table: string; name: string }>(
    `select c.relname as table, t.tgname as name from pg_trigger t
     join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and not t.tgisinternal and t.tgenabled = 'O' order by c.relname, t.tgname`,
  );
  return rows;
}

/** Read under `search_path = public`: the definitions name the referenced tables without a schema, as they were made. */
async function foreignKeysOf(client: pg.ClientBase): Promise<Array<{ table: string; name: string; definition: string }>> {
  const { rows } = await client.query<{ table: string; name: string; definition: string }>(
    `select c.relname as table, k.conname as name, pg_get_constraintdef(k.oid) as definition from pg_constraint k
     join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'public' and k.contype = 'f' order by c.relname, k.conname`,
  );
  return rows;
}

/** Each sequence of the target continues where the source's stood (next id included). */
async function writeSequences(target: pg.ClientBase, sequences: SequenceValue[]): Promise<void> {
  const { rows: missing } = await target.query<{ name: string }>(
    "select name from unnest($1::text[]) name where name not in (select sequencename from pg_sequences where schemaname = 'public')",
    [sequences.map((sequence) => sequence.name)],
  );
  if (missing.length > 0) throw new Error(`Séquences absentes de la base cible : ${missing.map((row) => row.name).join(', ')}.`);
  for (const { name, value } of sequences) {
    if (value === null)
      await target.query('select setval($1::regclass, seqstart, false) from pg_sequence where seqrelid = $1::regclass', [quoted(name)]);
    else await target.query('select setval($1::regclass, $2::bigint, true)', [quoted(name), value]);
  }
}

/**
 * Writes a stream of tables into `target`, which has the same schema or a newer one (more columns, more tables), in one
 * transaction: each table streamed is emptied (what the migrations inserted included) and filled, with the target's
 * triggers off (counters and progress rows arrive as they were, not recomputed) and the foreign keys dropped; then
 * every table's row count and checksum is compared with the expected one, the foreign keys are added back (which
 * checks them), the triggers switched on again and the sequences set to the streamed values; the transaction
 * commits only if all of that holds. All of it is allowed to the owner of the tables: no superuser needed
 * (`session_replication_role` is refused on managed PostgreSQL services).
 */
export async function writeDatabase(
  target: pg.ClientBase,
  database: DatabaseStream,
  onTable: (table: string, rows: number) => void = () => undefined,
): Promise<TableCopy[]> {
  await target.query('begin');
  try {
    await target.query(SETTINGS);
    const targetTables = new Set(await tablesOf(target));
    const triggers = await enabledTriggers(target);
    const foreignKeys = await foreignKeysOf(target);
    for (const { table, name } of triggers) await target.query(`alter table ${quoted(table)} disable trigger ${quoted(name)}`);
    for (const { table, name } of foreignKeys) await target.query(`alter table ${quoted(table)} drop constraint ${quoted(name)}`);

    const copies: TableCopy[] = [];
    const mismatches: CopyMismatchError['mismatches'] = [];
    for await (const { table, columns, batches, expected } of database.tables) {
      if (!targetTables.has(table)) throw new Error(`Table absente de la base cible : ${table}.`);
      const writable = new Set(await writableColumns(target, table));
      const unknown = columns.filter((column) => !writable.has(column));
      if (unknown.length > 0)
        throw new Error(`Colonnes absentes de la base cible : ${unknown.map((column) => `${table}.${column}`).join(', ')}.`);
      await target.query(`truncate ${quoted(table)}`);
      const list = columns.map(quoted).join(', ');
      for await (const batch of batches) {
        await target.query(
          `insert into ${quoted(table)} (${list}) overriding system value
           select ${list} from json_populate_recordset(null::${quoted(table)}, $1::json)`,
          [batch],
        );
      }
      const [source, written] = [await expected(), await checkTable(target, table, columns)];
      if (source.rows !== written.rows || source.checksum !== written.checksum) mismatches.push({ table, source, target: written });
      copies.push({ table, ...source });
      onTable(table, source.rows);
    }
    const sequences = await database.sequences();
    if (mismatches.length > 0) throw new CopyMismatchError(mismatches);

    for (const { table, name, definition } of foreignKeys) {
      await target.query(`alter table ${quoted(table)} add constraint ${quoted(name)} ${definition}`).catch((error: Error) => {
        throw new Error(`Les lignes copiées ne respectent pas la contrainte ${name} de ${table} : ${error.message}`, { cause: error });
      });
    }
    for (const { table, name } of triggers) await target.query(`alter table ${quoted(table)} enable trigger ${quoted(name)}`);
    // Last: setval is not undone by a rollback.
    await writeSequences(target, sequences);
    await target.query('commit');
    return copies;
  } catch (error) {
    await target.query('rollback').catch(() => undefined);
    throw error;
  }
}

/**
 * Copies every table of `source` into `target`, which already has the same schema (the same migrations), through
 * `writeDatabase` (one transaction, checked table by table, nothing kept on a difference). The source is read in one
 * snapshot: it may be in use meanwhile.
 */
export async function copyDatabase(
  source: pg.ClientBase,
  target: pg.ClientBase,
  onTable: (table: string, rows: number) => void = () => undefined,
): Promise<TableCopy[]> {
  await beginSnapshot(source);
  try {
    return await writeDatabase(target, { tables: readTables(source), sequences: () => readSequences(source) }, onTable);
  } finally {
    await endSnapshot(source);
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
