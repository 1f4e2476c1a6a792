import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { hashToken } from './sessions.ts';

export interface ThrottleOptions {
  db: Db;
  /** Sign-in attempts allowed before the waits start (LOGIN_MAX_FAILURES). */
  maxFailures: number;
  /** The longest wait between two sign-in attempts (LOGIN_MAX_DELAY_SECONDS). */
  maxDelaySeconds: number;
}

const FORGET_FAILURES_AFTER = sql`interval '24 hours'`;
const PURGE_EVERY = 100;

/** The key of an email address in the throttling tables: the address itself is never stored. */
export function emailKey(email: string): string {
  return hashToken(email.trim().toLowerCase());
}

/** After a right password or a new one (reset link, admin reset), the address signs in at once. */
export async function forgetSignInFailures(executor: Pick<Db, 'execute'>, email: string): Promise<void> {
  await executor.execute(sql`delete from login_failures where email_hash = ${emailKey(email)}`);
}

/**
 * Per-key counters in the table `rate_limits`, one statement per decision, so that concurrent requests on one
 * instance or several count exactly: sign-in attempts here, open-data downloads (public.routes.ts).
 */
export function createRateLimits(db: Db) {
  let calls = 0;
  return {
    /** Counts one hit on `key`; past `max` hits in the current window of `windowSeconds`, the time left in it. */
    async hit(key: string, max: number, windowSeconds: number): Promise<number | undefined> {
      calls += 1;
      // Expired windows are useless: every hundredth hit of this process deletes them.
      if (calls % PURGE_EVERY === 0) await db.execute(sql`delete from rate_limits where window_ends_at <= now()`);
      const result = await db.execute<{ hits: number; seconds: number }>(sql`
        insert into rate_limits as r (key, hits, window_ends_at) values (${key}, 1, now() + make_interval(secs => ${windowSeconds}::int))
        on conflict (key) do update set
          hits = case when r.window_ends_at <= now() then 1 else r.hits + 1 end,
          window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at else r.window_ends_at end
        returning r.hits, ceil(extract(epoch from r.window_ends_at - now()))::int as seconds`);
      const [row] = result.rows;
      return row.hits > max ? Math.max(1, row.seconds) : undefined;
    },
  };
}

/**
 * Throttling state in the database (tables `rate_limits`, `login_failures`): one statement per decision,
 * so concurrent requests, on one instance or several, count exactly. Each function answers `undefined`
 * (go ahead) or the number of seconds to wait.
 */
export function createThrottles({ db, maxFailures, maxDelaySeconds }: ThrottleOptions) {
  const rateLimits = createRateLimits(db);
  let calls = 0;

  /** Expired rows are useless: every hundredth claim of this process deletes them. */
  async function purgeNow() {
    calls += 1;
    if (calls % PURGE_EVERY !== 0) return;
    await db.execute(sql`delete from login_failures where forget_at <= now()`);
  }

  /**
   * The moment the attempt that brings the count to `failures` makes the next one wait: 2, 4, 8... seconds.
   * The exponent stops at 20 (2^20 s is beyond any allowed maximum) so that a long siege cannot overflow it.
   */
  function retryAtAfter(failures: SQL | number): SQL {
    const count = typeof failures === 'number' ? sql`${failures}::int` : failures;
    return sql`case when ${count} >= ${maxFailures}::int
      then now() + make_interval(secs => least(power(2, least(${count} - ${maxFailures}::int + 1, 20)), ${maxDelaySeconds}::int)) end`;
  }

  return {
    /** Counts one hit on `key`; past `max` hits in the current window of `windowSeconds`, the time left in it. */
    hit: rateLimits.hit,

    /**
     * Claims one sign-in attempt for an email address, known or not, unless it must still wait. The attempt
     * counts before the password is checked, so that concurrent guesses cannot all slip in before the first
     * failure is written; `forgetSignInFailures` clears the count after a right password.
     */
    async claimSignIn(email: string): Promise<number | undefined> {
      const key = emailKey(email);
      await purgeNow();
      const next = sql`case when f.forget_at <= now() then 1 else f.failures + 1 end`;
      const claimed = await db.execute(sql`
        insert into login_failures as f (email_hash, failures, retry_at, forget_at)
          values (${key}, 1, ${retryAtAfter(1)}, now() + ${FORGET_FAILURES_AFTER})
        on conflict (email_hash) do update set
          failures = ${next}, retry_at = ${retryAtAfter(next)}, forget_at = excluded.forget_at
          where f.retry_at is null or f.retry_at <= now()
        returning f.failures`);
      if (claimed.rows.length > 0) return undefined;
      const waiting = await db.execute<{ seconds: number | null }>(
        sql`select ceil(extract(epoch from retry_at - now()))::int as seconds from login_failures where email_hash = ${key}`,
      );
      // A success may have cleared the row in between: one second is then plenty.
      return Math.max(1, waiting.rows[0]?.seconds ?? 1);
    },
  };
}

export type Throttles = ReturnType<typeof createThrottles>;
