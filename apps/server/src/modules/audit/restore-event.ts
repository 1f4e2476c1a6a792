import os from 'node:os';
import path from 'node:path';

/** node-postgres' client and PGlite both answer `query(text, params)` with `{rows}`. */
interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Writes "Restauration d'une sauvegarde" into the database just restored (`npm run restore`): no request, so
 * no actor nor IP address; the system account that ran the command goes in the details. A backup older than
 * the audit log (migration 0006) has no table to write to yet: nothing is written, and the answer says so.
 */
export async function recordRestore(client: Queryable, backupFile: string): Promise<boolean> {
  const { rows } = await client.query("select to_regclass('public.audit_log') is not null as present");
  if (!(rows[0] as { present: boolean } | undefined)?.present) return false;
  const details = { command: 'npm run restore', system_user: os.userInfo().username, host: os.hostname() };
  await client.query(
    "insert into audit_log (action, result, target_type, target_label, details) values ('backup.restore', 'success', 'backup', $1, $2)",
    [path.basename(backupFile), JSON.stringify(details)],
  );
  return true;
}
