/**
 * Restores a backup made by "Effectuer une sauvegarde" into an empty installation:
 *   npm run restore -- <backup> [--force]
 * <backup> is the database file (…-db.tar.gz for the embedded database, …-db.dump for PostgreSQL),
 * given as a path or as its name in BACKUP_DIR/db_data; the documents archive of the same backup
 * (…-docs.tar.gz, beside it or in BACKUP_DIR/docs) is restored into STORAGE_DIR. A non-empty
 * database or storage folder is overwritten only with --force.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { loadConfig } from '../config.ts';
import { acquireDataDirLock } from '../db/data-dir-lock.ts';
import { PGLITE_EXTENSIONS } from '../db/pglite-options.ts';
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
const docsName = path.basename(dbFile).replace(/-db\.(tar\.gz|dump)$/, '-docs.tar.gz');
const docsCandidates = [
  path.join(path.dirname(dbFile), docsName),
  path.join(path.dirname(dbFile), '..', BACKUP_FOLDERS.doc, docsName),
  path.join(config.backupDir, BACKUP_FOLDERS.doc, docsName),
];
const docsFile = docsCandidates.find((candidate) => fs.existsSync(candidate));
const force = values.force ?? false;

if (!isEmptyDir(config.storageDir) && !force)
  fail(`Le dossier des documents ${config.storageDir} n'est pas vide : ajoutez --force pour l'écraser.`);

if (config.databaseUrl) {
  if (!dbFile.endsWith('.dump'))
    fail('Une sauvegarde de la base embarquée (.tar.gz) ne se restaure pas dans PostgreSQL : démarrez sans DATABASE_URL.');
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ used: boolean }>(
    "select exists (select 1 from information_schema.tables where table_schema = 'public' and table_name = 'users') as used",
  );
  const hasUsers = rows[0]?.used ? (await client.query('select 1 from users limit 1')).rowCount : 0;
  await client.end();
  if (hasUsers && !force) fail('La base PostgreSQL contient déjà des données : ajoutez --force pour les remplacer.');
  await restorePostgres(dbFile, config.databaseUrl, Boolean(hasUsers) || force);
} else {
  if (!dbFile.endsWith('.tar.gz')) fail('Une sauvegarde PostgreSQL (.dump) se restaure avec DATABASE_URL défini.');
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
      loadDataDir: new Blob([fs.readFileSync(dbFile)]),
    });
    await db.query('CHECKPOINT');
    await db.close();
  } finally {
    lock.release();
  }
}

if (docsFile) {
  if (force) fs.rmSync(config.storageDir, { recursive: true, force: true });
  await extractDocuments(docsFile, config.storageDir);
  console.log(`Documents restaurés dans ${config.storageDir}.`);
} else {
  console.warn(`Archive des documents ${docsName} introuvable : seuls les enregistrements de la base sont restaurés.`);
}
console.log(`Base restaurée depuis ${path.basename(dbFile)}.`);
