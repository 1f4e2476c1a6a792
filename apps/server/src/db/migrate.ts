import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { type Database, withStartupLock } from './client.ts';

/** Beside this module: src/db/migrations from the sources, dist/migrations once compiled (scripts/build.mjs copies them). */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies the committed migrations; on PostgreSQL several instances may start at once, so they queue on a lock. */
export async function runMigrations(database: Database): Promise<void> {
  await withStartupLock(database, 727001, (db) => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER }));
}
