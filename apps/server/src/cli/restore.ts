/**
 * Restores a backup made by "Effectuer une sauvegarde" into an empty installation:
 *   npm run restore -- <backup> [--force]
 * <backup> is the database file (…-db.tar.gz for the embedded database, …-db.dump for PostgreSQL),
 * given as a path or as its name in BACKUP_DIR/db_data; the documents archive of the same backup
 * (…-docs.tar.gz, beside it or in BACKUP_DIR/docs) is restored into STORAGE_DIR. A non-empty
 * database or storage folder is overwritten only with --force. An encrypted backup (`….enc`) needs the
 * BACKUP_ENCRYPTION_KEY it was made with; it is decrypted into a private folder under DATA_DIR, removed afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { acquireDataDirLock } from '../db/data-dir-lock.ts';
import { PGLITE_EXTENSIONS } from '../db/pglite-options.ts';
import { recordRestore } from '../modules/audit/restore-event.ts';
import { decryptBackup, ENCRYPTED_EXTENSION, isEncryptedBackup } from '../modules/backups/backup-crypto.ts';
import { BACKUP_FOLDERS, extractDocuments, restorePostgres } from '../modules/backups/backup-files.ts';

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

const { values, positionals } = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean', default: false } } });
if (positionals.length !== 1) fail('Usage : npm run restore -- <fichier de sauvegarde de la base> [--force]');

const config = loadConfig();
const dbFile = locate(positionals[0], BACKUP_FOLDERS.db, config.backupDir);
const dbName = path.basename(dbFile).replace(/\.enc$/, '');
const docsName = path.basename(dbFile).replace(/-db\.(tar\.gz|dump)(\.enc)?$/, '-docs.tar.gz$2');
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

// Both files are decrypted before anything is replaced: a wrong key changes nothing.
const dbSource = await readable(dbFile);
const docsSource = docsFile ? await readable(docsFile) : undefined;

if (!isEmptyDir(config.storageDir) && !force)
  fail(`Le dossier des documents ${config.storageDir} n'est pas vide : ajoutez --force pour l'écraser.`);

if (config.databaseUrl) {
  if (!dbName.endsWith('.dump'))
    fail(
      'Une sauvegarde de la base embarquée (.tar.gz) ne se restaure pas dans PostgreSQL : restaurez-la sans DATABASE_URL, puis passez à PostgreSQL avec npm run migrate-to-postgres -- --to postgres://…',
    );
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ used: boolean }>(
    "select exists (select 1 from information_schema.tables where table_schema = 'public' and table_name = 'users') as used",
  );
  const hasUsers = rows[0]?.used ? (await client.query('select 1 from users limit 1')).rowCount : 0;
  await client.end();
  if (hasUsers && !force) fail('La base PostgreSQL contient déjà des données : ajoutez --force pour les remplacer.');
  await restorePostgres(dbSource, config.databaseUrl, Boolean(hasUsers) || force);
  const restored = new pg.Client({ connectionString: config.databaseUrl });
  await restored.connect();
  await logRestore(restored);
  await restored.end();
} else {
  if (!dbName.endsWith('.tar.gz')) fail('Une sauvegarde PostgreSQL (.dump) se restaure avec DATABASE_URL défini.');
  const lock = await acquireDataDirLock(config.pgliteDir, 0).catch((error: Error) => fail(error.message));
  try {
    if (!isEmptyDir(config.pgliteDir)) {
      if (!force) fail(`La base embarquée ${config.pgliteDir} n'est pas vide : ajoutez --force pour la remplacer.`);
      fs.rmSync(config.pgliteDir, { recursive: true, force: true });
    }
    fs.mkdirSync(config.pgliteDir, { recursive: true });
    const db = await PGlite.create({
      dataDir: config.pgliteDir,
      extensions: PGLITE_EXTENSIONS,
      loadDataDir: new Blob([fs.readFileSync(dbSource)]),
    });
    await logRestore(db);
    await db.query('CHECKPOINT');
    await db.close();
  } finally {
    lock.release();
  }
}

if (docsSource) {
  if (force) fs.rmSync(config.storageDir, { recursive: true, force: true });
  await extractDocuments(docsSource, config.storageDir);
  console.log(`Documents restaurés dans ${config.storageDir}.`);
} else {
  console.warn(`Archive des documents ${docsName} introuvable : seuls les enregistrements de la base sont restaurés.`);
}
console.log(`Base restaurée depuis ${path.basename(dbFile)}.`);
