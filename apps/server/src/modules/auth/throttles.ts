import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { hashToken } from './sessions.ts';

export interface ThrottleOptions {
  db: Db;
  /** Sign-in attempts allowed before the waits start (LOGIN_MAX_FAILURES). */
  maxFailures: number;
  /** The longest wait between two sign-in attempts of one client on one account (LOGIN_MAX_DELAY_SECONDS). */
  maxDelaySeconds: number;
  /** Sign-in attempts on one account from all clients in a rolling hour (LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR). */
  accountMaxPerHour: number;
}

/** Why an attempt must wait: its client's back-off on the account, or the ceiling of the account across clients. */
export interface SignInWait {
  seconds: number;
  limit: 'client' | 'account';
}

const FORGET_FAILURES_AFTER = sql`interval '24 hours'`;
const PURGE_EVERY = 100;

/** The key of an email address in the throttling tables: the address itself is never stored. */
export function emailKey(email: string): string {
  return hashToken(email.trim().toLowerCase());
}

/**
 * After a right password from `client`, that client signs in again at once and the attempt leaves the account's
 * hourly count; the other clients keep their back-off (an attacker's client must not get fresh guesses each time
 * the owner signs in). Without a client, after a new password (reset link, admin reset), every count of the account
 * goes: the guesses were against the old password.
 */
export async function forgetSignInFailures(executor: Pick<Db, 'execute'>, email: string, client?: string): Promise<void> {
  const key = emailKey(email);
  if (client === undefined) {
    await executor.execute(sql`delete from login_failures where email_hash = ${key}`);
    await executor.execute(sql`delete from login_account_failures where email_hash = ${key}`);
    return;
  }
  await executor.execute(sql`delete from login_failures where email_hash = ${key} and client = ${client}`);
  // The hourly count decays linearly from `failures` at `counted_at`: taking one off the stored value takes one off now.
  await executor.execute(sql`update login_account_failures set failures = greatest(failures - 1, 0) where email_hash = ${key}`);
}

/** Ends a claim inside its transaction, which rolls back what it counted. */
class Refused extends Error {
  constructor(readonly wait: SignInWait) {
    super('refused');
  }
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
 * Throttling state in the database (tables `rate_limits`, `login_failures`, `login_account_failures`): one statement or transaction per decision,
 * so concurrent requests, on one instance or several, count exactly. Each function answers `undefined`
 * (go ahead) or the number of seconds to wait.
 */
export function createThrottles({ db, maxFailures, maxDelaySeconds, accountMaxPerHour }: ThrottleOptions) {
  const rateLimits = createRateLimits(db);
  let calls = 0;
  /** The account's count now: it loses `accountMaxPerHour` an hour, continuously (a leaky bucket). */
  const accountCount = sql`greatest(a.failures - extract(epoch from now() - a.counted_at) * ${accountMaxPerHour}::float8 / 3600, 0)`;

  /** Expired rows are useless: every hundredth claim of this process deletes them. */
  async function purgeNow() {
    calls += 1;
    if (calls % PURGE_EVERY !== 0) return;
    await db.execute(sql`delete from login_failures where forget_at <= now()`);
    await db.execute(sql`delete from login_account_failures as a where ${accountCount} = 0`);
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

  /**
   * Claims one sign-in attempt of `client` (its address) for an email address, known or not, unless it must still
   * wait: past LOGIN_MAX_FAILURES attempts of this client on this account, each waits twice as long as the previous
   * one; past LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR attempts on the account from all clients in a rolling hour, every
   * client waits. The attempt counts before the password is checked, so that concurrent guesses cannot all slip in
   * before the first failure is written; `forgetSignInFailures` takes it back after a right password. An attempt from
   * a device that signed in to the account before (`isTrustedDevice`, device-cookie.ts) is counted in the account but
   * never refused by its ceiling, so that a distributed attack cannot lock the owner out.
   */
  async function claimSignInAttempt(email: string, client: string, isTrustedDevice = false): Promise<SignInWait | undefined> {
    const key = emailKey(email);
    await purgeNow();
    const next = sql`case when f.forget_at <= now() then 1 else f.failures + 1 end`;
    try {
      // One transaction: an attempt that the account's ceiling refuses does not count in the client's back-off.
      await db.transaction(async (tx) => {
        const claimed = await tx.execute(sql`
          insert into login_failures as f (email_hash, client, failures, retry_at, forget_at)
            values (${key}, ${client}, 1, ${retryAtAfter(1)}, now() + ${FORGET_FAILURES_AFTER})
          on conflict (email_hash, client) do update set
            failures = ${next}, retry_at = ${retryAtAfter(next)}, forget_at = excluded.forget_at
            where f.retry_at is null or f.retry_at <= now()
          returning f.failures`);
        if (claimed.rows.length === 0) {
          const waiting = await tx.execute<{ seconds: number | null }>(sql`
            select ceil(extract(epoch from retry_at - now()))::int as seconds
            from login_failures where email_hash = ${key} and client = ${client}`);
          throw new Refused({ seconds: Math.max(1, waiting.rows[0]?.seconds ?? 1), limit: 'client' });
        }
        const counted = await tx.execute(sql`
          insert into login_account_failures as a (email_hash, failures, counted_at) values (${key}, 1, now())
          on conflict (email_hash) do update set failures = ${accountCount} + 1, counted_at = now()
            where ${isTrustedDevice} or ${accountCount} + 1 <= ${accountMaxPerHour}
          returning a.failures`);
        if (counted.rows.length === 0) {
          const waiting = await tx.execute<{ seconds: number | null }>(sql`
            select ceil((${accountCount} + 1 - ${accountMaxPerHour}) * 3600 / ${accountMaxPerHour}::float8)::int as seconds
            from login_account_failures as a where email_hash = ${key}`);
          throw new Refused({ seconds: Math.max(1, waiting.rows[0]?.seconds ?? 1), limit: 'account' });
        }
      });
      return undefined;
    } catch (error) {
      if (error instanceof Refused) return error.wait;
      throw error;
    }
  }

  return {
    /** Counts one hit on `key`; past `max` hits in the current window of `windowSeconds`, the time left in it. */
    hit: rateLimits.hit,

    claimSignInAttempt,

    /** `claimSignInAttempt` for the callers that need only the seconds to wait (undefined: go ahead). */
    async claimSignIn(email: string, client: string): Promise<number | undefined> {
      return (await claimSignInAttempt(email, client))?.seconds;
    },
  };
}

export type Throttles = ReturnType<typeof createThrottles>;
