import type { Config } from '../config.ts';
import { connectEmbedded, connectPostgres, type Database } from './client.ts';
import { runMigrations } from './migrate.ts';

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'databasePoolMax' | 'embeddedDir' | 'legacyPgliteDir'>;

/**
 * The database the configuration names, migrated to the latest schema: PostgreSQL at DATABASE_URL, or the
 * embedded cluster under DATA_DIR. The server and the commands (create-admin) open it the same way.
 */
export async function openDatabase(config: DatabaseConfig, log: (message: string) => void = () => undefined): Promise<Database> {
  const database = config.databaseUrl
    ? connectPostgres(config.databaseUrl, { max: config.databasePoolMax })
    : await connectEmbedded(config.embeddedDir, { max: config.databasePoolMax, onLog: (line) => log(`[postgres] ${line}`) });
  try {
    await runMigrations(database);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
  return database;
}
