import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { recordAudit } from './audit.service.ts';

/** The advisory lock key of the purge (any other key in this app: 727001, the migrations' startup lock). */
export const AUDIT_PURGE_LOCK = 727_029;

/**
 * Deletes the audit entries older than `retentionDays` (AUDIT_RETENTION_DAYS) and writes one entry saying how many;
 * `undefined` when another instance is purging at this moment.
 *
 * Once across instances on one database: the run takes `pg_try_advisory_xact_lock` in its transaction, so a second
 * instance that starts meanwhile skips rather than waits, and the lock goes with the transaction (no row to clean up
 * after a crash). Instances that run one after the other simply find nothing more to delete: each run is one indexed
 * DELETE (audit_log_created_idx), cheap when there is nothing to do. The job queue runs it every six hours, once per
 * period across instances (`audit-retention`, jobs/schedule.ts); the lock stays for a run started by hand meanwhile. The database allows this DELETE only (migration 0010): the transaction-local
 * `reformes.audit_purge_before` names the cutoff, and the trigger refuses any row written after it.
 */
export async function purgeAuditLog(db: Db, retentionDays: number): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const lock = await tx.execute<{ locked: boolean }>(sql`select pg_try_advisory_xact_lock(${AUDIT_PURGE_LOCK}) as locked`);
    if (!lock.rows[0]?.locked) return undefined;
    await tx.execute(
      sql`select set_config('reformes.audit_purge_before', (now() - make_interval(days => ${retentionDays}::int))::text, true)`,
    );
    const result = await tx.execute(
      sql`delete from audit_log where created_at < current_setting('reformes.audit_purge_before')::timestamptz`,
    );
    const deleted = result.rowCount ?? 0;
    if (deleted > 0) await recordAudit(tx, { action: 'audit.purge', actor: {}, details: { deleted, retention_days: retentionDays } });
    return deleted;
  });
}
