import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
    window_ends_at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_window_idx').on(t.window_ends_at)],
);

/**
 * Sign-in attempts per email address, whether an account has it or not (the SHA-256 of the lowercased
 * address): past `LOGIN_MAX_FAILURES`, each attempt waits twice as long as the previous one (auth/throttles.ts).
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    email_hash: text().primaryKey(),
    /** Attempts since the last success; an attempt counts before its password is checked, a success clears it. */
    failures: integer().notNull(),
    /** No attempt is checked before this moment. */
    retry_at: timestamp({ withTimezone: true }),
    /** A day without attempts and the count starts again from zero. */
    forget_at: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('login_failures_forget_idx').on(t.forget_at)],
);
