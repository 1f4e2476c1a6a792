/**
 * Restores a backup made by "Effectuer une sauvegarde" into an empty installation:
 *   npm run restore -- <backup> [--force]
 * <backup> is the database file, given as a path or as its name in BACKUP_DIR/db_data:
 *   …-db.jsonl.gz  the embedded database's own dump: into the embedded database, or into PostgreSQL with DATABASE_URL;
 *   …-db.dump      pg_dump of a PostgreSQL database: into PostgreSQL (DATABASE_URL) only;
 *   …-db.tar.gz    the PGlite data directory older versions saved: converted into either.
 * The documents archive of the same backup (…-docs.tar.gz, beside it or in BACKUP_DIR/docs) is restored into
 * STORAGE_DIR, or into the S3 bucket when S3_* is set (archives kept in the bucket are downloaded first). A database holding accounts or reforms, or a non-empty storage folder, is overwritten only with
 * --force. An encrypted backup (`….enc`) needs the BACKUP_ENCRYPTION_KEY it was made with; it is decrypted into a
 * private folder under DATA_DIR, removed afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { connectEmbedded, connectPostgres, type Database, withClient } from '../db/client.ts';
import { holdsData } from '../db/copy-database.ts';
import { DataDirLockedError } from '../db/data-dir-lock.ts';
import { EmbeddedClusterError } from '../db/embedded-cluster.ts';
import { restoreLegacyPgliteBackup } from '../db/legacy-pglite.ts';
import { runMigrations } from '../db/migrate.ts';
import { removeRefusedJobs } from '../jobs/queue.ts';
import { recordRestore } from '../modules/audit/restore-event.ts';
import { decryptBackup, ENCRYPTED_EXTENSION, isEncryptedBackup } from '../modules/backups/backup-crypto.ts';
import {
  BACKUP_FOLDERS,
  extractDocuments,
  restoreLogicalBackup,
  restorePostgres,
  verifyLogicalBackup,
} from '../modules/backups/backup-files.ts';
import { openStores } from '../storage/stores.ts';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function locate(argument: string, folder: string, backupDir: string): string {
  for (const candidate of [argument, path.join(backupDir, folder, argument)]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.resolve(candidate);
  }
  return fail(`Sauvegarde introuvable : ${argument}`);
}

function isEmptyDir(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

const FORMATS = { 'jsonl.gz': 'logical', dump: 'pg_dump', 'tar.gz': 'pglite' } as const;

const { values, positionals } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
if (positionals.length !== 1) fail('Usage : npm run restore -- <fichier de sauvegarde de la base> [--force]');

const config = loadConfig();
const dbFile = locate(positionals[0], BACKUP_FOLDERS.db, config.backupDir);
const dbName = path.basename(dbFile).replace(/\.enc$/, '');
const extension = /-db\.(jsonl\.gz|dump|tar\.gz)$/.exec(dbName)?.[1] as keyof typeof FORMATS | undefined;
if (!extension) fail(`${dbName} n'est pas une sauvegarde de la base (…-db.jsonl.gz, …-db.dump ou …-db.tar.gz).`);
const format = FORMATS[extension];
if (format === 'pg_dump' && !config.databaseUrl) fail('Une sauvegarde PostgreSQL (.dump) se restaure avec DATABASE_URL défini.');

const docsName = path.basename(dbFile).replace(/-db\.(jsonl\.gz|dump|tar\.gz)(\.enc)?$/, '-docs.tar.gz$2');
const docsCandidates = [
  path.join(path.dirname(dbFile), docsName),
  path.join(path.dirname(dbFile), '..', BACKUP_FOLDERS.doc, docsName),
  path.join(config.backupDir, BACKUP_FOLDERS.doc, docsName),
];
const docsFile = docsCandidates.find((candidate) => fs.existsSync(candidate));
const force = values.force ?? false;

/** The restore goes into the restored database's audit log, when it has one. */
async function logRestore(client: Parameters<typeof recordRestore>[0]): Promise<void> {
  if (!(await recordRestore(client, dbFile)))
    console.warn("Cette sauvegarde précède le journal d'audit : la restauration n'y est pas inscrite.");
}

let decryptDir: string | undefined;
process.on('exit', () => {
  if (decryptDir) fs.rmSync(decryptDir, { recursive: true, force: true });
});

/** The file to restore from: the backup itself, or its decrypted copy when it is encrypted. */
async function readable(file: string): Promise<string> {
  if (!(await isEncryptedBackup(file))) return file;
  const key = config.backupEncryptionKey;
  if (!key)
    fail(`La sauvegarde ${path.basename(file)} est chiffrée : définissez BACKUP_ENCRYPTION_KEY (la clé utilisée pour la sauvegarde).`);
  if (!decryptDir) {
    fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
    decryptDir = fs.mkdtempSync(path.join(config.dataDir, '.restauration-'));
  }
  const target = path.join(decryptDir, path.basename(file, ENCRYPTED_EXTENSION));
  await decryptBackup(file, target, key).catch((error: Error) => fail(error.message));
  return target;
}

/** Refusals printed as they are; the database is closed before the command exits. */
class Refusal extends Error {}

const notEmpty = () =>
  new Refusal(
    config.databaseUrl
      ? 'La base PostgreSQL contient déjà des données : ajoutez --force pour les remplacer.'
      : `La base embarquée ${config.embeddedDir} n'est pas vide : ajoutez --force pour la remplacer.`,
  );

/**
 * The dumps the app converts itself (its own, PGlite's) go into a database brought to the latest migrations,
 * emptied first with --force.
 */
async function restoreConverted(database: Database, file: string): Promise<void> {
  await withClient(database, async (client) => {
    if (!(await holdsData(client))) return;
    if (!force) throw notEmpty();
    console.log('Base non vide : elle est vidée (--force).');
    await client.query('drop schema if exists drizzle cascade; drop schema public cascade; create schema public');
  });
  // The migrator takes a client of its own: none may be held meanwhile (a pool of one).
  await runMigrations(database);
  await withClient(database, async (client) => {
    if (format === 'logical') {
      const tables = await restoreLogicalBackup(file, client);
      const rows = tables.reduce((sum, table) => sum + table.rows, 0);
      console.log(`${tables.length} tables, ${rows} lignes restaurées et vérifiées.`);
    } else {
      // Backups made while the embedded database was PGlite: converted by legacy-pglite.ts.
      await restoreLegacyPgliteBackup(file, client);
    }
    await logRestore(client);
  });
}

async function restorePgDump(databaseUrl: string, file: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const used = await holdsData(client);
    if (used && !force) throw notEmpty();
    await restorePostgres(file, databaseUrl, used || force);
    // Backups made before issue 40 hold job rows, unread by pg_restore: none its kind refuses reaches the worker.
    for (const job of await removeRefusedJobs(client)) console.warn(`Tâche invalide de la sauvegarde supprimée (${job}).`);
    await logRestore(client);
  } finally {
    await client.end();
  }
}

// Both files are decrypted, and the app's own dump read whole, before anything is replaced: a wrong key, a truncated
// file or a dump from a newer version changes nothing.
const dbSource = await readable(dbFile);
const docsSource = docsFile ? await readable(docsFile) : undefined;
if (format === 'logical') await verifyLogicalBackup(dbSource).catch((error: Error) => fail(error.message));

// In a bucket, restored documents replace those of the same name (names are UUIDs): nothing to refuse.
if (!config.s3 && !isEmptyDir(config.storageDir) && !force)
  fail(`Le dossier des documents ${config.storageDir} n'est pas vide : ajoutez --force pour l'écraser.`);

try {
  if (format === 'pg_dump') await restorePgDump(config.databaseUrl as string, dbSource);
  else {
    const database = config.databaseUrl
      ? connectPostgres(config.databaseUrl, { max: 1 })
      : await connectEmbedded(config.embeddedDir, { max: 1 });
    try {
      await restoreConverted(database, dbSource);
    } finally {
      await database.close();
    }
  }
} catch (error) {
  const refused = error instanceof Refusal || error instanceof DataDirLockedError || error instanceof EmbeddedClusterError;
  fail(refused ? (error as Error).message : `Restauration interrompue : ${(error as Error).message}`);
}

if (docsSource) {
  if (force && !config.s3) fs.rmSync(config.storageDir, { recursive: true, force: true });
  const restored = await extractDocuments(docsSource, (await openStores(config)).documents);
  console.log(`Documents restaurés dans ${config.s3 ? `le compartiment S3 ${config.s3.bucket}` : config.storageDir} : ${restored}.`);
} else {
  console.warn(`Archive des documents ${docsName} introuvable : seuls les enregistrements de la base sont restaurés.`);
}
console.log(`Base restaurée depuis ${path.basename(dbFile)}.`);
