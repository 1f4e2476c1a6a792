/**
 * Installations made before PostgreSQL kept their database in PGlite (WebAssembly PostgreSQL): a data directory
 * (DATA_DIR/db) and `…-db.tar.gz` backups of it. The native binaries cannot open that format (a 32-bit build), so
 * the data is copied logically, once, into the PostgreSQL database. PGlite is loaded only when there is such a
 * database: the server checks for one at every start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { copyDatabase, type TableCopy } from './copy-database.ts';
import { MIGRATIONS_FOLDER } from './migrate.ts';

/**
 * `float8ByVal` in global/pg_control (the same offset from PostgreSQL 16 to 18): false on a 32-bit build such as
 * PGlite, true on every 64-bit PostgreSQL. A data directory the app's own PostgreSQL made is never taken for PGlite.
 */
const FLOAT8_BY_VALUE_OFFSET = 248;

/** Whether `dir` holds a PGlite data directory, e.g. `isLegacyPgliteDir(path.join(dataDir, 'db'))`. */
export function isLegacyPgliteDir(dir: string): boolean {
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) return false;
  let control: Buffer;
  try {
    control = fs.readFileSync(path.join(dir, 'global', 'pg_control'));
  } catch {
    return false;
  }
  return control.length > FLOAT8_BY_VALUE_OFFSET && control[FLOAT8_BY_VALUE_OFFSET] === 0;
}

/**
 * Brings the PGlite database of `dir` to the latest migrations, then copies every table into `target` (already
 * migrated) and checks it (`copyDatabase`: one transaction, row counts and checksums). The directory is left in
 * place, closed cleanly: the caller renames it.
 */
export async function convertPgliteDataDir(dir: string, target: pg.ClientBase, log: (message: string) => void): Promise<TableCopy[]> {
  if (!isLegacyPgliteDir(dir)) throw new Error(`Aucune base PGlite dans ${dir}.`);
  return convert(dir, `de ${dir}`, target, log);
}

/**
 * The same from an old `…-db.tar.gz` backup (decrypted already), unpacked into a private folder beside the file and
 * removed afterwards: beside rather than under the system's temporary folder, often a small tmpfs, because the
 * unpacked database is several times the size of the tarball.
 */
export async function restoreLegacyPgliteBackup(
  file: string,
  target: pg.ClientBase,
  log: (message: string) => void = () => undefined,
): Promise<TableCopy[]> {
  const label = `de la sauvegarde ${path.basename(file)}`;
  if (!fs.existsSync(file)) throw new Error(`La base PGlite ${label} n'a pas pu être ouverte : fichier introuvable (${file}).`);
  const dataDir = await attempt(`Aucun dossier de travail n'a pu être créé à côté de ${file}`, () =>
    fs.promises.mkdtemp(path.join(path.dirname(file), '.pglite-')),
  );
  try {
    await attempt(`La base PGlite ${label} n'a pas pu être ouverte`, () => unpackDataDir(file, dataDir));
    return await convert(dataDir, label, target, log);
  } finally {
    await fs.promises.rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/**
 * Not PGlite's `loadDataDir`: on a damaged tarball its gunzip rejects a promise nobody awaits, which ends the whole
 * process. node-tar streams the file and fails like any other call.
 */
async function unpackDataDir(file: string, dir: string): Promise<void> {
  // node-tar serves this one-off conversion only: not loaded by a server that never meets an old archive (issue 33).
  const tar = await import('tar');
  const problems: string[] = [];
  // PGlite names its entries from the root (/PG_VERSION): node-tar strips that slash and says so (TAR_ENTRY_INFO).
  const onwarn = (code: string, message: string) => {
    if (code !== 'TAR_ENTRY_INFO') problems.push(message);
  };
  // Read through once before writing anything: on damage node-tar rejects at once, while the files it has begun
  // to write are still being written, and removing the folder would race them.
  await tar.t({ file, onwarn }).catch((error: Error) => problems.push(error.message));
  if (problems.length > 0) throw new Error(`archive abîmée ou incomplète (${problems[0]})`);
  await tar.x({ file, cwd: dir, onwarn });
  if (problems.length > 0) throw new Error(problems[0]);
  if (!isLegacyPgliteDir(dir)) throw new Error("l'archive ne contient pas de base PGlite");
}

/** `label`: « de /chemin/db », « de la sauvegarde … », for the messages. */
async function convert(dataDir: string, label: string, target: pg.ClientBase, log: (message: string) => void): Promise<TableCopy[]> {
  log(`Conversion de la base PGlite ${label} vers PostgreSQL…`);
  const pglite = await openPglite(dataDir, label);
  try {
    await attempt(`La base PGlite ${label} n'a pas pu être mise à jour`, () =>
      migrate(drizzle({ client: pglite.client }), { migrationsFolder: MIGRATIONS_FOLDER }),
    );
    return await attempt(`La copie de la base PGlite ${label} vers PostgreSQL a échoué`, () =>
      copyDatabase(pglite.client, target, (table, rows) => log(`${table} : ${rows} ligne(s) copiée(s) et vérifiée(s)`)),
    );
  } finally {
    await pglite.close().catch((error: Error) => log(`La base PGlite ${label} s'est mal fermée : ${error.message}`));
  }
}

/** PGlite in this process, served on loopback: the migrator and `copyDatabase` speak node-postgres to it. */
async function openPglite(dataDir: string, label: string) {
  // The container image leaves PGlite out (apps/server/scripts/image-externals.mjs): say what to do instead of a stack.
  const [{ PGlite }, { pg_trgm }, { PGLiteSocketServer }] = await attempt(
    `La base PGlite ${label} (version antérieure au 2026-11-26) ne peut pas être convertie ici : PGlite n'est pas installé ` +
      "(l'image conteneur ne le contient pas). Convertissez-la d'abord avec le serveur installé par npm ci (docs/operations.md)",
    () =>
      Promise.all([import('@electric-sql/pglite'), import('@electric-sql/pglite/contrib/pg_trgm'), import('@electric-sql/pglite-socket')]),
  );
  const pglite = await attempt(`La base PGlite ${label} n'a pas pu être ouverte`, () =>
    PGlite.create(dataDir, { extensions: { pg_trgm } }),
  );
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0 });
  let client: pg.Client | undefined;
  const close = async () => {
    await client?.end().catch(() => undefined);
    await server.stop().catch(() => undefined);
    // PGlite never fsyncs: a checkpoint writes everything to the data files before it closes.
    await pglite.query('CHECKPOINT').catch(() => undefined);
    await pglite.close();
  };
  try {
    await server.start();
    const port = Number(server.getServerConn().split(':').pop());
    client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
    // A connection cut outside a query must not crash the process: the next query fails instead.
    client.on('error', () => undefined);
    await client.connect();
    return { client, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

async function attempt<T>(failure: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Error(`${failure} : ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
