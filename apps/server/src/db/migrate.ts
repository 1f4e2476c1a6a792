import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Database } from './client.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/** Applies the committed migrations; on PostgreSQL several instances may start at once, so they queue on a lock. */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migrate(database.db, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock(727001)');
    await migrate(database.db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.query('select pg_advisory_unlock(727001)').catch(() => undefined);
    client.release();
  }
}
