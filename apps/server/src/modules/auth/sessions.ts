import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { MESSAGES } from '@reformes/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { refreshTokens } from '../../db/schema/index.ts';
import { unauthenticated } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';

export interface SessionTokens {
  access_token: string;
  refresh_token: string;
  expire_in: number;
  token_type: 'Bearer';
}

export interface SessionOptions {
  db: Db;
  signAccessToken: (payload: { sub: number; sid: string }, expiresInSeconds: number) => string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  /** The database counters of throttles.ts (`createRateLimits`): they bound the audit entries of reused tokens. */
  rateLimits: { hit(key: string, max: number, windowSeconds: number): Promise<number | undefined> };
}

/** Opaque tokens are stored only as their SHA-256: a database leak gives no usable token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Sessions: a short JWT access token naming a refresh-token family (its `sid`), and an opaque
 * refresh token rotated on every use. Presenting an already rotated token is a theft signal:
 * the whole family is revoked, which also kills the access tokens that name it.
 */
export function createSessions(options: SessionOptions) {
  const { db, rateLimits } = options;

  /** `expiresAt` is the family's: counted from the sign-in, a rotation passes it on and never extends it. */
  async function issue(userId: number, familyId: string, expiresAt: Date, executor: Pick<Db, 'insert'> = db): Promise<SessionTokens> {
    const refresh = newOpaqueToken();
    await executor.insert(refreshTokens).values({
      user_id: userId,
      family_id: familyId,
      token_hash: hashToken(refresh),
      expires_at: expiresAt,
    });
    return {
      access_token: options.signAccessToken({ sub: userId, sid: familyId }, options.accessTokenTtlSeconds),
      refresh_token: refresh,
      expire_in: options.accessTokenTtlSeconds,
      token_type: 'Bearer',
    };
  }

  async function revokeFamily(familyId: string, executor: Pick<Db, 'update'> = db) {
    await executor
      .update(refreshTokens)
      .set({ revoked_at: new Date() })
      .where(and(eq(refreshTokens.family_id, familyId), isNull(refreshTokens.revoked_at)));
  }

  /**
   * A spent token presented again: a theft signal for the audit log, the account as target. At most one entry a minute
   * per session family, so that a client retrying an old token in a loop does not flood the log.
   */
  async function recordReuse({ userId, familyId, rotated }: { userId: number; familyId: string; rotated: boolean }) {
    if ((await rateLimits.hit(`audit-refresh-reuse:${familyId}`, 1, 60)) !== undefined) return;
    await recordAudit(db, {
      action: 'session.refresh_reuse',
      result: 'failure',
      target: { type: 'user', id: userId },
      details: { reason: rotated ? 'rotated' : 'revoked' },
    });
  }

  return {
    /** A new session; `familyId` when a directory session row already names it (modules/directory). */
    start(userId: number, familyId: string = randomUUID()) {
      return issue(userId, familyId, new Date(Date.now() + options.refreshTokenTtlDays * 86_400_000));
    },

    async rotate(refreshToken: string): Promise<SessionTokens> {
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(refreshTokens)
          .where(eq(refreshTokens.token_hash, hashToken(refreshToken)))
          .for('update');
        if (!row) return { error: true as const };
        if (row.revoked_at || row.rotated_at) {
          await revokeFamily(row.family_id, tx);
          return { error: true as const, reuse: { userId: row.user_id, familyId: row.family_id, rotated: row.rotated_at !== null } };
        }
        if (row.expires_at.getTime() <= Date.now()) return { error: true as const };
        await tx.update(refreshTokens).set({ rotated_at: new Date() }).where(eq(refreshTokens.id, row.id));
        return { tokens: await issue(row.user_id, row.family_id, row.expires_at, tx) };
      });
      // The revocation above must be committed even though the caller gets a 401.
      if ('error' in outcome) {
        if (outcome.reuse) await recordReuse(outcome.reuse);
        throw unauthenticated(MESSAGES.invalidRefreshToken);
      }
      return outcome.tokens;
    },

    revokeFamily: (familyId: string, executor: Pick<Db, 'update'> = db) => revokeFamily(familyId, executor),

    async revokeAllOf(userId: number, executor: Pick<Db, 'update'> = db) {
      await executor
        .update(refreshTokens)
        .set({ revoked_at: new Date() })
        .where(and(eq(refreshTokens.user_id, userId), isNull(refreshTokens.revoked_at)));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;
