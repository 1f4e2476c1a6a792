import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, pipeline as streamPipeline } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { BACKUP_FOLDERS } from '@reformes/domain';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type pg from 'pg';
import type { Database } from '../../db/client.ts';
import type { TableCopy } from '../../db/copy-database.ts';
import { restoreLogicalDump, verifyLogicalDump, writeLogicalDump } from '../../db/logical-dump.ts';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { AppError } from '../../http/app-error.ts';
import { type DocumentStore, documentKeyOf, parseDocumentKey } from '../../storage/file-store.ts';
import { encryptionStage } from './backup-crypto.ts';

// The folders are named by the download paths of spec §7 (packages/domain/src/routes/backups.ts).
export { BACKUP_FOLDERS };

/** The embedded database's backups (`reformes-…-db.jsonl.gz`, `.enc` added when encrypted). */
export const LOGICAL_DUMP_EXTENSION = 'jsonl.gz';

export function backupFolderOf(type: string): string {
  return type === 'doc' ? BACKUP_FOLDERS.doc : BACKUP_FOLDERS.db;
}

/** pg_dump's time limit: well under a job's lease (300 s, jobs/worker.ts), so that a hung dump never outlives it. */
export const PG_DUMP_TIMEOUT_MS = 120_000;
/** What is kept of a command's error output (its end, where the error is): the rest is read and dropped. */
const STDERR_KEPT = 16 * 1024;

/**
 * A connection string without its password, which goes to the child's environment instead (issue 40, item 11): a
 * command line is readable by every local user (/proc/<pid>/cmdline), the environment by the same user only.
 */
export function connectionOf(databaseUrl: string): { dbname: string; env: NodeJS.ProcessEnv } {
  let dbname = databaseUrl;
  let password: string | undefined;
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    const url = new URL(databaseUrl);
    if (url.password) password = decodeURIComponent(url.password);
    url.password = '';
    password ??= url.searchParams.get('password') ?? undefined;
    url.searchParams.delete('password');
    dbname = url.href;
  } else {
    // libpq's keyword form: `host=… password='…' dbname=…`.
    const keyword = /(^|\s)password\s*=\s*('(?:[^'\\]|\\.)*'|\S*)/.exec(databaseUrl);
    if (keyword) {
      password = keyword[2].replace(/^'(.*)'$/s, '$1').replace(/\\(.)/g, '$1');
      dbname = databaseUrl.replace(keyword[0], '').trim();
    }
  }
  // Only the child's environment: the server's own stays as it is.
  return { dbname, env: password === undefined ? process.env : { ...process.env, PGPASSWORD: password } };
}

/** Runs a command, collecting the end of its stderr for the error message. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return exitOf(spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env }), command);
}

/**
 * Resolves when the command succeeds; the end of its stderr makes the error message. Past `timeoutMs` the command
 * is killed, its output ended, and the promise rejected with a French message.
 */
function exitOf(child: ChildProcess, command: string, timeoutMs?: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    let dropped = false;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      if (stderr.length > STDERR_KEPT) {
        stderr = stderr.slice(-STDERR_KEPT);
        dropped = true;
      }
    });
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill('SIGKILL');
            child.stdout?.destroy();
          }, timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        error.code === 'ENOENT'
          ? new AppError(
              500,
              `La commande ${command} est introuvable : installez le client PostgreSQL de la même version majeure que le serveur (paquet postgresql-client).`,
            )
          : error,
      );
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (timedOut)
        reject(new Error(`${command} a dépassé ${Math.round((timeoutMs ?? 0) / 1000)} s : il a été arrêté, la sauvegarde est abandonnée.`));
      else if (code === 0) resolve();
      else reject(new Error(`${command} a échoué (code ${code}) : ${dropped ? '…' : ''}${stderr.trim()}`));
    });
  });
}

/** Writes a new backup file, readable by the server's user only, encrypted when a key is given (backup-crypto.ts). */
async function writeBackup(source: Readable, file: string, key: Buffer | undefined): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const target = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  await (key ? pipeline(source, encryptionStage(key), target) : pipeline(source, target));
}

/** `pg_dump` (PostgreSQL only) or the app's own logical dump (BACKUP_DATABASE_FORMAT). */
export type DumpFormat = 'pg_dump' | 'logical';

/**
 * The database dump: the app's own logical dump, gzipped, for the embedded cluster (its binaries ship no pg_dump) and
 * for PostgreSQL with BACKUP_DATABASE_FORMAT=logical, or `pg_dump` custom format for PostgreSQL.
 */
export async function dumpDatabase(
  database: Database,
  file: string,
  key?: Buffer,
  { timeoutMs = PG_DUMP_TIMEOUT_MS, format = 'pg_dump' }: { timeoutMs?: number; format?: DumpFormat } = {},
): Promise<void> {
  if (database.kind === 'embedded' || format === 'logical') {
    const client = await database.pool.connect();
    try {
      await writeLogicalBackup(client, file, key);
    } finally {
      client.release();
    }
    return;
  }
  const { dbname, env } = connectionOf(database.url);
  // No job's rows (issue 40, item 12): a mail's body may hold a reset link or a temporary password, and a job waiting
  // when the backup was made would run again, stale, after a restore. The table itself is kept.
  const args = ['--format=custom', '--no-owner', '--exclude-table-data=public.jobs', `--dbname=${dbname}`];
  const child = spawn('pg_dump', args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const [written, exited] = await Promise.allSettled([writeBackup(child.stdout, file, key), exitOf(child, 'pg_dump', timeoutMs)]);
  // pg_dump's own failure says more than the broken pipe it causes.
  if (exited.status === 'rejected') throw exited.reason;
  if (written.status === 'rejected') throw written.reason;
}

/** `…-db.jsonl.gz`: a logical dump (logical-dump.ts) of `client`'s database, streamed through gzip into `file`. */
export async function writeLogicalBackup(client: pg.ClientBase, file: string, key?: Buffer): Promise<void> {
  const gzip = zlib.createGzip();
  // Both awaited: the client goes back to its pool only once the dump has ended its snapshot, whichever side failed.
  const [dumped, written] = await Promise.allSettled([writeLogicalDump(client, gzip), writeBackup(gzip, file, key)]);
  if (dumped.status === 'rejected') throw dumped.reason;
  if (written.status === 'rejected') throw written.reason;
}

/** A `…-db.jsonl.gz` read through gunzip; zlib's errors (in English) become a French refusal. */
async function readLogicalBackup<T>(file: string, read: (input: Readable) => Promise<T>): Promise<T> {
  // The callback form hands back the gunzip stream, which a failure of the file reaches.
  const input = streamPipeline(fs.createReadStream(file), zlib.createGunzip(), () => undefined);
  return read(input).catch((error: Error) => {
    const zlibError = [error, error.cause].find((cause) => (cause as NodeJS.ErrnoException | undefined)?.code?.startsWith('Z_'));
    if (!zlibError) throw error;
    throw new Error(`Le fichier ${path.basename(file)} est altéré ou tronqué (${(zlibError as Error).message}) : rien n'a été restauré.`, {
      cause: error,
    });
  });
}

/** Restores a `…-db.jsonl.gz` (decrypted already) into `client`'s database, migrated to the latest migrations. */
export function restoreLogicalBackup(file: string, client: pg.ClientBase): Promise<TableCopy[]> {
  return readLogicalBackup(file, (input) => restoreLogicalDump(input, client));
}

/** Reads a `…-db.jsonl.gz` whole, without a database, against this version's migrations (`verifyLogicalDump`). */
export function verifyLogicalBackup(file: string): Promise<void> {
  const migrations = readMigrationFiles({ migrationsFolder: MIGRATIONS_FOLDER }).map((migration) => migration.hash);
  return readLogicalBackup(file, (input) => verifyLogicalDump(input, migrations));
}

export function databaseDumpExtension(format: DumpFormat): string {
  return format === 'logical' ? LOGICAL_DUMP_EXTENSION : 'dump';
}

/**
 * The documents archive: every document of the store (attachments, signatures), on the disk or in the bucket, read one
 * at a time into a gzipped tar as `./<folder>/<name>`: the archive's size, not the store's, bounds nothing in memory.
 */
export async function archiveDocuments(store: DocumentStore, file: string, key?: Buffer): Promise<void> {
  const { default: tarStream } = await import('tar-stream');
  const pack = tarStream.pack();
  const packed = (async () => {
    for await (const document of store.list()) {
      // `./<folder>/<name>`, as the archives of earlier versions (tar of STORAGE_DIR) name them.
      const name = `./${documentKeyOf(document.folder, document.name)}`;
      const entry = pack.entry({ name, size: document.size, mode: 0o600 });
      await pipeline(await store.stream(document.folder, document.name), entry);
    }
    pack.finalize();
  })();
  packed.catch((error: Error) => pack.destroy(error));
  const gzip = zlib.createGzip();
  // A failure anywhere (a document gone, the bucket down, the disk full) ends all three.
  await Promise.all([packed, pipeline(pack, gzip), writeBackup(gzip, file, key)]);
}

/**
 * Puts back every document of an archive into the store, one entry at a time; an entry that is not a document of
 * ours (`../x`, a link, a folder) is refused before anything of it is written.
 */
export async function extractDocuments(file: string, store: DocumentStore): Promise<number> {
  // Loaded with the first backup or restore, not at start (issue 33: memory at rest).
  const { default: tarStream } = await import('tar-stream');
  const extract = tarStream.extract();
  let restored = 0;
  const reading = pipeline(fs.createReadStream(file), zlib.createGunzip(), extract);
  // Its failure (a truncated archive) also ends the loop below, which reports it.
  reading.catch(() => undefined);
  for await (const entry of extract) {
    const document = parseDocumentKey(entry.header.name);
    if (entry.header.type === 'directory') {
      entry.resume();
      continue;
    }
    if (entry.header.type !== 'file' || !document) {
      extract.destroy();
      throw new Error(`Entrée inattendue dans l'archive des documents : ${entry.header.name}`);
    }
    await store.put(document.folder, document.name, Readable.from(entry), entry.header.size ?? 0);
    restored += 1;
  }
  await reading;
  return restored;
}

/** pg_restore of a `.dump` into `databaseUrl` (the restore command, with its operator: no time limit). */
export async function restorePostgres(file: string, databaseUrl: string, clean: boolean): Promise<void> {
  const { dbname, env } = connectionOf(databaseUrl);
  await run('pg_restore', ['--no-owner', ...(clean ? ['--clean', '--if-exists'] : []), `--dbname=${dbname}`, file], env);
}
