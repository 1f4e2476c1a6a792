/**
 * Moves an installation from the embedded database to PostgreSQL:
 *   npm run migrate-to-postgres -- --to postgres://user@host:5432/reformes [--storage <dossier>] [--force]
 * Reads the embedded database of DATA_DIR (stop the server first), copies every table into the target and checks
 * each one's row count and checksum before committing; with --storage, copies the documents there and checks each.
 * A target that already holds accounts or reforms is replaced only with --force.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { MigrateRefusal, migrateToPostgres } from '../db/migrate-to-postgres.ts';

const USAGE = 'Usage : npm run migrate-to-postgres -- --to postgres://… [--storage <dossier des documents>] [--force]';

const { values } = parseArgs({
  options: { to: { type: 'string' }, storage: { type: 'string' }, force: { type: 'boolean', default: false } },
});
if (!values.to) {
  console.error(USAGE);
  process.exit(1);
}

const config = loadConfig();
try {
  const started = Date.now();
  const report = await migrateToPostgres({
    embeddedDir: config.embeddedDir,
    storageDir: config.storageDir,
    to: values.to,
    toStorage: values.storage,
    force: values.force,
    log: (message) => console.log(message),
  });
  const rows = report.tables.reduce((sum, table) => sum + table.rows, 0);
  console.log(
    `Migration terminée en ${((Date.now() - started) / 1000).toFixed(1)} s : ${report.tables.length} tables, ${rows} lignes, ${report.documents} document(s). ` +
      'Démarrez maintenant le serveur avec DATABASE_URL.',
  );
} catch (error) {
  console.error(error instanceof MigrateRefusal ? error.message : `Migration interrompue : ${(error as Error).message}`);
  process.exit(1);
}
