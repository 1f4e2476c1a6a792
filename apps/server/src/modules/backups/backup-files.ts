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

/** Runs a command, collecting stderr for the error message. */
function run(command: string, args: string[]): Promise<void> {
  return exitOf(spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] }), command);
}

/** Resolves when the command succeeds; its stderr makes the error message. */
function exitOf(child: ChildProcess, command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new AppError(
              500,
              `La commande ${command} est introuvable : installez le client PostgreSQL de la même version majeure que le serveur (paquet postgresql-client).`,
            )
          : error,
      );
    });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} a échoué (code ${code}) : ${stderr.trim()}`))));
  });
}

/** Writes a new backup file, readable by the server's user only, encrypted when a key is given (backup-crypto.ts). */
async function writeBackup(source: Readable, file: string, key: Buffer | undefined): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const target = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  await (key ? pipeline(source, encryptionStage(key), target) : pipeline(source, target));
}

/**
 * The database dump: the app's own logical dump, gzipped, for the embedded cluster (its binaries ship no pg_dump),
 * or `pg_dump` custom format for PostgreSQL.
 */
export async function dumpDatabase(database: Database, file: string, key?: Buffer): Promise<void> {
  if (database.kind === 'embedded') {
    const client = await database.pool.connect();
    try {
      await writeLogicalBackup(client, file, key);
    } finally {
      client.release();
    }
    return;
  }
  const child = spawn('pg_dump', ['--format=custom', '--no-owner', `--dbname=${database.url}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  const [written, exited] = await Promise.allSettled([writeBackup(child.stdout, file, key), exitOf(child, 'pg_dump')]);
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

export function databaseDumpExtension(database: Database): string {
  return database.kind === 'embedded' ? LOGICAL_DUMP_EXTENSION : 'dump';
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

export async function restorePostgres(file: string, databaseUrl: string, clean: boolean): Promise<void> {
  await run('pg_restore', ['--no-owner', ...(clean ? ['--clean', '--if-exists'] : []), `--dbname=${databaseUrl}`, file]);
}
