import { type AuditAction, tooManyAttemptsMessage } from '@reformes/domain';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { refreshTokens, users } from '../../db/schema/index.ts';
import { type AppError, notFound, tooManyRequests } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { decoyPasswordHash, verifyPassword } from './password.ts';
import { forgetSignInFailures, type Throttles } from './throttles.ts';

export interface Reauthentication {
  userId: number;
  /** The caller's client (`clientKey`): its back-off on the account. */
  client: string;
  /** The route asking, for the audit entry of a failure: 'api/change-password'. */
  route: string;
  password: string;
  /** The second check when the route asks for a code too: right or not. */
  isRightCode?: () => Promise<boolean>;
  /** The answer to a wrong password or code, the same whichever was wrong. */
  refusal: AppError;
  /** The action a failure is written under: 'reauthentication' unless the route has its own ('password.change'). */
  audited?: AuditAction;
}

/**
 * The password typed again behind a session (change of password, of email, of second factor; issue 29). A stolen
 * session must not make it a password oracle: each attempt is counted in the per-account back-off of the sign-in
 * (`claimSignIn`, before any check, so concurrent guesses cannot slip in), and a wrong password and a wrong code get
 * one and the same answer, `refusal`; both are checked every time, so neither the answer nor its timing tells which
 * was wrong. A right answer clears the count, as a sign-in does. Answers the account's email.
 */
export async function reauthenticate(
  { db, throttles }: { db: Db; throttles: Throttles },
  { userId, client, route, password, isRightCode, refusal, audited = 'reauthentication' }: Reauthentication,
): Promise<{ email: string }> {
  const [user] = await db.select({ email: users.email, passwordHash: users.password_hash }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound();
  const failure = (reason: 'throttled' | 'wrong_password' | 'wrong_code') =>
    recordAudit(db, {
      action: audited,
      result: 'failure',
      target: { type: 'user', id: userId, label: user.email },
      details: { reason, route },
    });
  const wait = await throttles.claimSignIn(user.email, client);
  if (wait !== undefined) {
    await failure('throttled');
    throw tooManyRequests(tooManyAttemptsMessage(wait), wait);
  }
  // An account created by the directory has no password to check: the same work, and a refusal.
  const isRightPassword = (await verifyPassword(user.passwordHash ?? (await decoyPasswordHash()), password)) && user.passwordHash !== null;
  const isRightSecond = isRightCode ? await isRightCode() : true;
  if (!isRightPassword || !isRightSecond) {
    await failure(isRightPassword ? 'wrong_code' : 'wrong_password');
    throw refusal;
  }
  await forgetSignInFailures(db, user.email, client);
  return { email: user.email };
}

/**
 * Ends every session of the account but the caller's (`sid`): after a change of its email or its second factor, a
 * session opened by someone else does not outlive it, while the user who made the change stays signed in. Revoking
 * the refresh-token family also refuses the access tokens that name it.
 */
export async function revokeOtherSessions(executor: Pick<Db, 'update'>, userId: number, sessionId: string): Promise<void> {
  await executor
    .update(refreshTokens)
    .set({ revoked_at: new Date() })
    .where(and(eq(refreshTokens.user_id, userId), ne(refreshTokens.family_id, sessionId), isNull(refreshTokens.revoked_at)));
}
