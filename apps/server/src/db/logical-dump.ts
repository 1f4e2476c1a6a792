/**
 * The embedded database's backups: a document the app writes itself (the embedded binaries ship no pg_dump), from
 * one snapshot, streamed; read back line by line into the embedded cluster or into PostgreSQL alike. One JSON value
 * per line:
 *
 *   {"format":"reformes-dump","version":1,"created_at":"…","migrations":[{"hash":"…","created_at":1795338872019},…]}
 *   {"table":"users","columns":["id","lastname",…]}
 *   [{"id":1,"lastname":"…"},…]                      a batch of rows, as many lines as the table needs
 *   {"table_end":"users","rows":5,"checksum":"…"}    copy-database.ts's checksum
 *   … the other tables …
 *   {"tables":30,"sequences":[{"name":"users_id_seq","value":"5"},…]}
 */
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import {
  beginSnapshot,
  CopyMismatchError,
  endSnapshot,
  readSequences,
  readTables,
  type SequenceValue,
  type TableCheck,
  type TableCopy,
  type TableStream,
  writeDatabase,
} from './copy-database.ts';
import { refusedJobRow } from './job-payloads.ts';

const FORMAT = 'reformes-dump';
const VERSION = 1;

/** A batch of a few hundred rows stays far below; a longer line means a damaged file, not one to load in memory. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

interface Migration {
  hash: string;
  created_at: number;
}

/** Refusals of a dump, in French, before anything is written or with everything written undone. */
export class DumpError extends Error {}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** Left out of every dump, and its rows in a dump checked against their kind's schema (job-payloads.ts). */
const JOBS_TABLE = 'jobs';
/** copy-database.ts's checksum of a table without rows: md5 of nothing. */
const EMPTY_CHECKSUM = 'd41d8cd98f00b204e9800998ecf8427e';

/** A dump's rows of `jobs` (one batch) are each their kind's, or the whole dump is refused (issue 40, item 3). */
function checkJobRows(batch: string): void {
  const rows = jsonArray(batch) ?? [];
  for (const row of rows) {
    const job = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    const refused = refusedJobRow(job);
    if (refused !== undefined)
      throw new DumpError(
        `La sauvegarde contient une tâche invalide (n° ${String(job.id).slice(0, 20)}, ${String(job.kind).slice(0, 40)} : ${refused}).`,
      );
  }
}

/** The migrations applied to a database (drizzle's journal), oldest first; none when it was never migrated. */
async function appliedMigrations(client: pg.ClientBase): Promise<Migration[]> {
  const { rows } = await client.query<{ present: boolean }>("select to_regclass('drizzle.__drizzle_migrations') is not null as present");
  if (!rows[0].present) return [];
  const applied = await client.query<{ hash: string; created_at: string }>(
    'select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by id',
  );
  return applied.rows.map((row) => ({ hash: row.hash, created_at: Number(row.created_at) }));
}

/** The lines of a dump of `client`'s database, produced as they are pulled: one batch of rows in memory at a time. */
async function* dumpLines(client: pg.ClientBase): AsyncGenerator<string> {
  await beginSnapshot(client);
  try {
    yield line({ format: FORMAT, version: VERSION, created_at: new Date().toISOString(), migrations: await appliedMigrations(client) });
    let tables = 0;
    for await (const { table, columns, batches, expected } of readTables(client)) {
      yield line({ table, columns });
      if (table === JOBS_TABLE) {
        // No job goes into a backup (issue 40, item 12): a mail's body may hold a reset link or a temporary password,
        // and a job waiting when the backup was made would run again, stale, after a restore.
        yield line({ table_end: table, rows: 0, checksum: EMPTY_CHECKSUM });
        tables += 1;
        continue;
      }
      for await (const batch of batches) {
        // Only a `json` column (there is none) keeps raw line breaks: fail now rather than write a dump nobody can read.
        if (batch.includes('\n')) throw new Error(`La table ${table} contient un saut de ligne brut : la sauvegarde est impossible.`);
        yield `${batch}\n`;
      }
      const { rows, checksum } = await expected();
      yield line({ table_end: table, rows, checksum });
      tables += 1;
    }
    yield line({ tables, sequences: await readSequences(client) });
  } finally {
    await endSnapshot(client);
  }
}

/**
 * Writes a dump of `client`'s database into `output` (then ended), e.g. through gzip into a file; when it returns,
 * even on a failure, the client is done with: the snapshot is closed and no query is pending.
 */
export async function writeLogicalDump(client: pg.ClientBase, output: Writable): Promise<void> {
  const lines = dumpLines(client);
  try {
    await pipeline(lines, output);
  } finally {
    // pipeline settles on the first error of `output`, maybe while a query of the dump is under way: return() waits
    // for it, then for the snapshot's end.
    await lines.return(undefined);
  }
}

/** The lines of `input` (UTF-8, each ended by `\n`); a line longer than `maxBytes`, or a last one left unended, is refused. */
export async function* readLines(input: AsyncIterable<Buffer | string>, maxBytes = MAX_LINE_BYTES): AsyncGenerator<string> {
  let pending: Buffer[] = [];
  let size = 0;
  let count = 0;
  const limit = maxBytes >= 1024 * 1024 ? `${Math.round(maxBytes / 1024 / 1024)} Mo` : `${maxBytes} octets`;
  const tooLong = () => new DumpError(`La ligne ${count + 1} de la sauvegarde dépasse ${limit} : le fichier est altéré.`);
  for await (const data of input) {
    let chunk = typeof data === 'string' ? Buffer.from(data) : data;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10)) {
      if (size + end > maxBytes) throw tooLong();
      pending.push(chunk.subarray(0, end));
      count += 1;
      yield Buffer.concat(pending).toString('utf8');
      pending = [];
      size = 0;
      chunk = chunk.subarray(end + 1);
    }
    if (size + chunk.length > maxBytes) throw tooLong();
    if (chunk.length > 0) {
      pending.push(chunk);
      size += chunk.length;
    }
  }
  if (size > 0) throw truncated(count);
}

const truncated = (lines: number) => new DumpError(`La sauvegarde est incomplète (fichier tronqué après la ligne ${lines}).`);

function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function jsonArray(text: string): unknown[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

const isSequence = (value: unknown): value is SequenceValue =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as SequenceValue).name === 'string' &&
  ((value as SequenceValue).value === null || typeof (value as SequenceValue).value === 'string');

/**
 * A dump as the stream `writeDatabase` takes: each table's batches are read as the writer asks for them, its trailer
 * gives what the table must read back as, and the last line the sequences, once nothing follows it.
 */
function parseDump(input: AsyncIterable<Buffer | string>) {
  const lines = readLines(input);
  let count = 0;
  let sequences: SequenceValue[] | undefined;

  async function next(): Promise<string> {
    const result = await lines.next();
    if (result.done) throw truncated(count);
    count += 1;
    return result.value;
  }

  const unreadable = (expected: string) => new DumpError(`La sauvegarde est illisible à la ligne ${count} : ${expected}.`);

  function parse(text: string, expected: string): Record<string, unknown> {
    const value = jsonObject(text);
    if (!value) throw unreadable(expected);
    return value;
  }

  async function header(): Promise<Migration[]> {
    const value = jsonObject(await next());
    if (value?.format !== FORMAT) throw new DumpError("Ce fichier n'est pas une sauvegarde de la base de Réformes (format inconnu).");
    if (typeof value.version !== 'number' || value.version > VERSION)
      throw new DumpError(
        `Cette sauvegarde est au format ${String(value.version)}, plus récent que celui que cette version de l'application sait lire (${VERSION}) : mettez l'application à jour avant de la restaurer.`,
      );
    const { migrations } = value;
    if (!Array.isArray(migrations) || !migrations.every((entry) => typeof entry?.hash === 'string'))
      throw new DumpError("L'en-tête de la sauvegarde est illisible (liste des migrations).");
    return migrations as Migration[];
  }

  async function* tables(): AsyncGenerator<TableStream> {
    let read = 0;
    for (;;) {
      const item = parse(await next(), 'un début de table ou la fin de la sauvegarde était attendu');
      if ('sequences' in item) {
        if (item.tables !== read || !Array.isArray(item.sequences) || !item.sequences.every(isSequence))
          throw new DumpError(`La fin de la sauvegarde (ligne ${count}) ne correspond pas à son contenu : le fichier est altéré.`);
        if (!(await lines.next()).done)
          throw new DumpError(`La sauvegarde continue après sa fin (ligne ${count}) : le fichier est altéré.`);
        sequences = item.sequences;
        return;
      }
      const { table, columns } = item;
      if (typeof table !== 'string' || !isStringArray(columns)) throw unreadable('un début de table était attendu');
      let end: TableCheck | undefined;
      const batches = async function* () {
        for (;;) {
          const text = await next();
          if (text.startsWith('[')) {
            if (!text.endsWith(']')) throw unreadable('ligne de données incomplète');
            if (table === JOBS_TABLE) checkJobRows(text);
            yield text;
            continue;
          }
          const expected = `la fin de la table ${table} était attendue`;
          const trailer = parse(text, expected);
          if (trailer.table_end !== table || typeof trailer.rows !== 'number' || typeof trailer.checksum !== 'string')
            throw unreadable(expected);
          end = { rows: trailer.rows, checksum: trailer.checksum };
          return;
        }
      };
      yield {
        table,
        columns,
        batches: batches(),
        expected: async () => {
          if (!end) throw new Error(`Lignes de la table ${table} non lues`);
          return end;
        },
      };
      if (!end) throw new Error(`Lignes de la table ${table} non lues`);
      read += 1;
    }
  }

  return {
    header,
    database: {
      tables: tables(),
      sequences: async () => {
        if (!sequences) throw truncated(count);
        return sequences;
      },
    },
    close: () => lines.return(undefined),
  };
}

/** Refuses a dump made after a migration this installation does not have: its rows may not fit this schema. */
function refuseNewer(migrations: Migration[], known: Set<string>): void {
  const unknown = migrations.filter((migration) => !known.has(migration.hash));
  if (unknown.length > 0)
    throw new DumpError(
      `Cette sauvegarde a été faite par une version plus récente de l'application (${unknown.length} migration(s) inconnue(s) de cette installation) : mettez l'application à jour, puis restaurez-la.`,
    );
}

async function checkMigrations(client: pg.ClientBase, migrations: Migration[]): Promise<void> {
  const known = new Set((await appliedMigrations(client)).map((migration) => migration.hash));
  if (known.size === 0) throw new DumpError("La base cible n'est pas migrée : appliquez les migrations avant de restaurer.");
  refuseNewer(migrations, known);
}

/**
 * Reads a whole dump without a database: its header against the migrations (hashes) of this version of the app, then
 * every line, each batch's rows counted against its table's trailer, to the last line. A restore that replaces data
 * (`--force`) runs it first, so that a damaged file or a newer one is refused before anything is dropped.
 */
export async function verifyLogicalDump(input: Readable, migrations: string[]): Promise<void> {
  const dump = parseDump(input);
  try {
    refuseNewer(await dump.header(), new Set(migrations));
    for await (const { table, batches, expected } of dump.database.tables) {
      let rows = 0;
      for await (const batch of batches) {
        const parsed = jsonArray(batch);
        if (!parsed) throw new DumpError(`La sauvegarde est illisible : une ligne de données de la table ${table} est altérée.`);
        rows += parsed.length;
      }
      if (rows !== (await expected()).rows)
        throw new DumpError(`La sauvegarde est altérée : la table ${table} n'a pas le nombre de lignes que la sauvegarde annonce.`);
    }
    await dump.database.sequences();
  } finally {
    await dump.close();
  }
}

/**
 * Restores a dump (`dumpLines`) into `client`'s database, already migrated to this version's migrations, through
 * `writeDatabase`: one transaction, each table's count and checksum compared with the dump's, nothing kept on any
 * difference, a truncated or altered file, or a dump from a newer version. Read line by line: memory stays bounded
 * whatever the size. Columns the dump lacks (a dump from an older version) take their defaults.
 */
export async function restoreLogicalDump(input: Readable, client: pg.ClientBase): Promise<TableCopy[]> {
  const dump = parseDump(input);
  await checkMigrations(client, await dump.header()).catch(async (error) => {
    await dump.close();
    throw error;
  });
  try {
    return await writeDatabase(client, dump.database);
  } catch (error) {
    // PostgreSQL's own refusals (a batch that is not JSON, a value out of range) are in English.
    if (error instanceof pg.DatabaseError)
      throw new DumpError(`La base a refusé le contenu de la sauvegarde (${error.message}) : rien n'a été restauré.`, { cause: error });
    if (error instanceof CopyMismatchError) throw error;
    const message = (error as Error).message.replace(/\.?$/, '.');
    throw new DumpError(`${message} Rien n'a été restauré.`, { cause: error });
  } finally {
    await dump.close();
  }
}
