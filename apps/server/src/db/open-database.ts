import fs from 'node:fs';
import type { Config } from '../config.ts';
import { connectEmbedded, connectPostgres, type Database, withClient } from './client.ts';
import { holdsData } from './copy-database.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { convertPgliteDataDir, isLegacyPgliteDir } from './legacy-pglite.ts';
import { runMigrations } from './migrate.ts';

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'databasePoolMax' | 'embeddedDir' | 'legacyPgliteDir'>;

/**
 * The database the configuration names, migrated to the latest schema: PostgreSQL at DATABASE_URL, or the
 * embedded cluster under DATA_DIR, into which the PGlite database of an earlier version is converted on the first
 * start. The server and the commands (create-admin) open it the same way.
 */
export async function openDatabase(
  config: DatabaseConfig,
  {
    log = () => undefined,
    onPostgresLog = () => undefined,
  }: { log?: (message: string) => void; onPostgresLog?: (line: string) => void } = {},
): Promise<Database> {
  const database = config.databaseUrl
    ? connectPostgres(config.databaseUrl, { max: config.databasePoolMax })
    : await connectEmbedded(config.embeddedDir, { max: config.databasePoolMax, onLog: onPostgresLog });
  try {
    if (config.databaseUrl) await warnIfSuperuser(database, log);
    await runMigrations(database);
    if (!config.databaseUrl && isLegacyPgliteDir(config.legacyPgliteDir)) await convertLegacy(database, config.legacyPgliteDir, log);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}

/**
 * The app needs only to own its database. A superuser also reads the server's files and runs programs from SQL: it is
 * allowed (CI runs the suites so), but the operator is told.
 */
async function warnIfSuperuser(database: Database, log: (message: string) => void): Promise<void> {
  const { rows } = await database.pool.query<{ role: string; rolsuper: boolean }>(
    'select current_user as role, rolsuper from pg_roles where rolname = current_user',
  );
  if (rows[0]?.rolsuper)
    log(
      `DATABASE_URL se connecte avec le rôle ${rows[0].role}, superutilisateur PostgreSQL : en production, utilisez un rôle ` +
        'propriétaire de la base, sans droits de superutilisateur.',
    );
}

/**
 * PGlite (versions before 2026-11-26) -> the embedded cluster, once: every table copied and checked in one
 * transaction, then the PGlite folder renamed beside itself (kept, not deleted: the operator removes it once
 * satisfied). A failure changes nothing: the next start tries again. An old server still running on that folder
 * holds its lock and is refused.
 */
async function convertLegacy(database: Database, pgliteDir: string, log: (message: string) => void): Promise<void> {
  await withClient(database, async (client) => {
    if (await holdsData(client)) {
      log(
        `Une base PGlite d'une version précédente subsiste dans ${pgliteDir}, mais la base embarquée contient déjà des données : ` +
          "elle n'est pas convertie. Déplacez ce dossier si ses données ne sont plus utiles.",
      );
      return;
    }
    const lock = await acquireDataDirLock(pgliteDir, 0);
    try {
      log(`Conversion de la base PGlite ${pgliteDir} vers la base PostgreSQL embarquée…`);
      const tables = await convertPgliteDataDir(pgliteDir, client, log);
      const kept = `${pgliteDir}.pglite-${new Date().toISOString().replace(/[-:]/g, '').slice(0, 15)}`;
      fs.renameSync(pgliteDir, kept);
      log(`Base PGlite convertie (${tables.length} tables vérifiées) ; l'ancien dossier est conservé dans ${kept}.`);
    } finally {
      lock.release();
    }
  });
}
