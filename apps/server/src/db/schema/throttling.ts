import { doublePrecision, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { at } from './columns.ts';

/**
 * Fixed-window request counters, in the database so that they survive a restart and are shared by every
 * instance. Keys name the limit and its subject: `login-ip:<ip>`, `forgot-ip:<ip>`, `forgot-account:<email hash>`.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text().primaryKey(),
    hits: integer().notNull(),
    /** The count starts again from zero after this moment. */
    window_ends_at: at().notNull(),
  },
  (t) => [index('rate_limits_window_idx').on(t.window_ends_at)],
);

/**
 * Sign-in attempts per email address, whether an account has it or not (the SHA-256 of the lowercased
 * address), and per client (its address, `request.ip`): past `LOGIN_MAX_FAILURES`, each attempt of that client waits
 * twice as long as the previous one (auth/throttles.ts). Another client is not made to wait by them.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    email_hash: text().notNull(),
    client: text().notNull(),
    /** Attempts since the last success; an attempt counts before its password is checked, a success clears it. */
    failures: integer().notNull(),
    /** No attempt of this client is checked before this moment. */
    retry_at: at(),
    /** A day without attempts and the count starts again from zero. */
    forget_at: at().notNull(),
  },
  (t) => [primaryKey({ columns: [t.email_hash, t.client] }), index('login_failures_forget_idx').on(t.forget_at)],
);

/**
 * The ceiling of an email address across all clients: attempts in a rolling hour, a count that loses
 * `LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR` an hour, continuously; past that number, every client waits (auth/throttles.ts).
 */
export const loginAccountFailures = pgTable('login_account_failures', {
  email_hash: text().primaryKey(),
  /** The count at `counted_at`; a right password takes its attempt back. */
  failures: doublePrecision().notNull(),
  counted_at: at().notNull(),
});
