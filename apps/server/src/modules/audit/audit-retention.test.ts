import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import type { Database } from '../../db/client.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { AUDIT_PURGE_LOCK, purgeAuditLog } from './audit-retention.ts';

const REFUSED = "Le journal d'audit ne peut être ni modifié ni effacé.";

describe('AUDIT_RETENTION_DAYS', () => {
  it('keeps 400 days by default, a whole number of days, at least 1', () => {
    expect(loadConfig({}).auditRetentionDays).toBe(400);
    expect(loadConfig({ AUDIT_RETENTION_DAYS: '30' }).auditRetentionDays).toBe(30);
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '0' })).toThrow('AUDIT_RETENTION_DAYS doit valoir au moins 1');
    expect(() => loadConfig({ AUDIT_RETENTION_DAYS: '1.5' })).toThrow('AUDIT_RETENTION_DAYS doit être un nombre entier de jours');
  });
});

describe('audit journal: append-only, purged after AUDIT_RETENTION_DAYS', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase('migrated');
  });
  afterAll(() => database.close());

  const count = async () => Number((await database.pool.query('select count(*) as n from audit_log')).rows[0].n);
  /** Rows written `days` ago (an insert may set created_at: only changes are refused). */
  const writeAged = (days: number, rows = 1) =>
    database.pool.query(
      `insert into audit_log (action, result, created_at) select 'login', 'success', now() - make_interval(days => $1) from generate_series(1, $2)`,
      [days, rows],
    );

  beforeEach(async () => {
    // The one way to empty it: a purge whose cutoff is in the future is refused, so the tests reuse old rows only.
    await purgeAuditLog(database.db, 1);
  });

  it('refuses an UPDATE, a DELETE and a TRUNCATE through SQL, in French', async () => {
    await writeAged(500);
    await expect(database.pool.query("update audit_log set action = 'logout'")).rejects.toThrow(REFUSED);
    await expect(database.pool.query('delete from audit_log')).rejects.toThrow(REFUSED);
    await expect(database.pool.query('truncate audit_log')).rejects.toThrow(REFUSED);
    expect(await count()).toBeGreaterThan(0);
  });

  it('refuses a delete that sets the purge flag for recent rows, or a cutoff less than a day old', async () => {
    await writeAged(0);
    const client = await database.pool.connect();
    try {
      await client.query('begin');
      await client.query("select set_config('reformes.audit_purge_before', (now() + interval '1 day')::text, true)");
      await expect(client.query('delete from audit_log')).rejects.toThrow(REFUSED);
      await client.query('rollback');
    } finally {
      client.release();
    }
  });

  it('the purge deletes only the rows older than the retention, and says how many in the journal', async () => {
    await writeAged(500, 3);
    await writeAged(10, 2);
    const before = await count();
    expect(await purgeAuditLog(database.db, 400)).toBe(3);
    // The two recent rows stay, and the purge itself is written down.
    expect(await count()).toBe(before - 3 + 1);
    const { rows } = await database.pool.query("select details from audit_log where action = 'audit.purge'");
    expect(rows.at(-1).details).toEqual({ deleted: 3, retention_days: 400 });
    expect(await purgeAuditLog(database.db, 400)).toBe(0);
  });

  it('two instances purging at once delete the old rows once', async () => {
    await writeAged(800, 50);
    const runs = await Promise.all([purgeAuditLog(database.db, 400), purgeAuditLog(database.db, 400), purgeAuditLog(database.db, 400)]);
    expect(runs.reduce<number>((sum, deleted) => sum + (deleted ?? 0), 0)).toBe(50);
    const { rows } = await database.pool.query("select count(*)::int as n from audit_log where action = 'audit.purge'");
    expect(rows[0].n).toBeGreaterThanOrEqual(1);
  });

  it('skips the run while another instance holds the purge lock', async () => {
    await writeAged(800, 2);
    const other = await database.pool.connect();
    try {
      await other.query('begin');
      await other.query('select pg_advisory_xact_lock($1)', [AUDIT_PURGE_LOCK]);
      expect(await purgeAuditLog(database.db, 400)).toBeUndefined();
      await other.query('commit');
    } finally {
      other.release();
    }
    expect(await purgeAuditLog(database.db, 400)).toBe(2);
  });
});
