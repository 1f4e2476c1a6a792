import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.ts';

/**
 * Work to do after a change, written in the change's transaction (migration 0012): mails, and the reset-link requests
 * answered before they are looked at. Workers of every instance claim due rows with `FOR UPDATE SKIP LOCKED`
 * (jobs/worker.ts): each row is done once, retried with a growing delay while it fails, kept as failed after its
 * last attempt for an admin to see.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    kind: text().notNull(),
    /** What the handler needs; a delivered mail keeps its address and subject only (its body may hold a secret). */
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    run_at: at().notNull().defaultNow(),
    attempts: integer().notNull().default(0),
    max_attempts: integer().notNull(),
    /** A worker holds the row until then; past it, another worker may take it again (its worker died). */
    locked_until: at(),
    last_error: text(),
    done_at: at(),
    failed_at: at(),
    created_at: createdAt(),
  },
  (t) => [
    index('jobs_due_idx').on(t.run_at).where(sql`done_at is null and failed_at is null`),
    // One job per kind and period of a schedule (jobs/schedule.ts), whichever instance queues it first (migration 0015).
    uniqueIndex('jobs_slot_unique').on(t.kind, sql`(${t.payload}->>'slot')`).where(sql`(payload->>'slot') is not null`),
  ],
);
