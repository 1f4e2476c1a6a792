import { bigint, date, index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { at, createdAt, refersTo } from './columns.ts';
import { users } from './users.ts';

/** The digests a user turned off in « Mon compte » (issue 32, migration 0017): a row per digest not wanted. */
export const reminderOptOuts = pgTable(
  'reminder_opt_outs',
  { user_id: refersTo(() => users.id, 'cascade'), digest: text().notNull() },
  (t) => [primaryKey({ columns: [t.user_id, t.digest] })],
);

/** Each run of the reminders, scheduled or asked for on « Rappels ». */
export const reminderRuns = pgTable('reminder_runs', {
  id: serial().primaryKey(),
  trigger: text().$type<'schedule' | 'manual'>().notNull(),
  started_at: createdAt(),
  finished_at: at(),
  mails: integer().notNull().default(0),
  errors: integer().notNull().default(0),
});

/**
 * Each digest queued: its key (user, digest, week) lets one instance only write it, in the transaction that queues
 * its mail, so a digest leaves at most once a week to a user however many runs or instances try.
 */
export const reminderDeliveries = pgTable(
  'reminder_deliveries',
  {
    user_id: refersTo(() => users.id, 'cascade'),
    digest: text().notNull(),
    /** The Monday (UTC) of the week. */
    week: date({ mode: 'string' }).notNull(),
    run_id: refersTo(() => reminderRuns.id, 'cascade'),
    /** The mail's job (jobs.id): whether it left, waits or failed. */
    job_id: bigint({ mode: 'number' }).notNull(),
    sent_at: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.digest, t.week] }), index('reminder_deliveries_run_idx').on(t.run_id)],
);
