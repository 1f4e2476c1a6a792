import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { runMigrations } from '../../db/migrate.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { recordRestore } from './restore-event.ts';

describe('the restore event (npm run restore)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('writes nothing into a database older than the audit log, and says so', async () => {
    expect(await recordRestore(database.pool, '/sauvegardes/db_data/ancienne-db.tar.gz')).toBe(false);
  });

  it('writes "backup.restore" with the file name and the system account, without actor or IP address', async () => {
    await runMigrations(database);
    expect(await recordRestore(database.pool, '/sauvegardes/db_data/reformes-20260712-db.dump.enc')).toBe(true);
    const { rows } = await database.pool.query('select * from audit_log');
    expect(rows).toMatchObject([
      {
        action: 'backup.restore',
        result: 'success',
        actor_id: null,
        actor_email: null,
        ip: null,
        target_type: 'backup',
        target_label: 'reformes-20260712-db.dump.enc',
        details: { command: 'npm run restore', system_user: expect.any(String), host: expect.any(String) },
      },
    ]);
  });
});
