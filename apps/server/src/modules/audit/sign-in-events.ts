import type { AuditReason } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { emailKey } from '../auth/throttles.ts';
import { recordAudit } from './audit.service.ts';

/**
 * A refused sign-in, written on its own (no change to roll back): the account when the email has one, the email
 * as typed otherwise. A wrong guess that makes this client wait before its next attempt on the email (throttles.ts:
 * the back-off is per account and client) also writes "Verrouillage du compte" with the wait.
 */
export async function recordSignInFailure(
  db: Db,
  { email, userId, reason, client }: { email: string; userId?: number; reason: AuditReason; client: string },
): Promise<void> {
  const actor = { id: userId ?? null, email };
  await recordAudit(db, { action: 'login', result: 'failure', actor, details: { reason } });
  if (reason !== 'wrong_password' && reason !== 'unknown_email' && reason !== 'wrong_code') return;
  const waiting = await db.execute<{ failures: number; seconds: number }>(sql`
    select failures, ceil(extract(epoch from retry_at - now()))::int as seconds
    from login_failures where email_hash = ${emailKey(email)} and client = ${client} and retry_at > now()`);
  const [wait] = waiting.rows;
  if (wait) await recordAudit(db, { action: 'lockout', actor, details: { failures: wait.failures, wait_seconds: wait.seconds } });
}
