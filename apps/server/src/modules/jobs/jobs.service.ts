import { JOBS_MESSAGES, type JobsQuery } from '@reformes/domain';
import { and, asc, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { jobs } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { pageOf } from '../../http/pagination.ts';
import { noteQueued } from '../../jobs/queue.ts';
import { recordAudit } from '../audit/audit.service.ts';

/** Who a job is for: a mail's address, the email of a reset-link request. */
const recipient = sql<string | null>`case ${jobs.kind}
  when 'mail' then ${jobs.payload}->>'to' when 'reset-link' then ${jobs.payload}->>'email' end`;

/** What the screen shows of a job: never the payload itself (a mail's body may hold a link or a password). */
const rowColumns = {
  id: jobs.id,
  kind: jobs.kind,
  to: recipient,
  subject: sql<string | null>`case when ${jobs.kind} = 'mail' then ${jobs.payload}->>'subject' end`,
  attempts: jobs.attempts,
  max_attempts: jobs.max_attempts,
  last_error: jobs.last_error,
  run_at: jobs.run_at,
  created_at: jobs.created_at,
  failed_at: jobs.failed_at,
};

/** Failed and waiting jobs (issue 31): an admin sees them and sends a failed one again. */
export function createJobsService(db: Db) {
  return {
    /** Failed ones, last failed first; waiting ones, next due first. */
    async list({ state, page, per_page }: JobsQuery) {
      const where =
        state === 'failed' ? and(isNull(jobs.done_at), isNotNull(jobs.failed_at)) : and(isNull(jobs.done_at), isNull(jobs.failed_at));
      const order = state === 'failed' ? [desc(jobs.failed_at), desc(jobs.id)] : [asc(jobs.run_at), asc(jobs.id)];
      const [{ total }] = await db.select({ total: count() }).from(jobs).where(where);
      const rows = await db
        .select(rowColumns)
        .from(jobs)
        .where(where)
        .orderBy(...order)
        .limit(per_page)
        .offset((page - 1) * per_page);
      const answered = rows.map((row) => ({ ...row, failed_at: row.failed_at?.toISOString() ?? null }));
      return pageOf(answered, total, page, per_page);
    },

    /**
     * A failed job waits again, due now with all its attempts; 404 unless it is failed, 409 for a mail whose body was
     * erased (a secret, or not a mail: jobs/worker.ts). Audited with it.
     */
    async retry(id: number): Promise<void> {
      await db.transaction(async (tx) => {
        const failed = and(eq(jobs.id, id), isNotNull(jobs.failed_at), isNull(jobs.done_at));
        const [job] = await tx
          .update(jobs)
          .set({ run_at: sql`now()`, attempts: 0, failed_at: null, locked_until: null })
          .where(and(failed, sql`not (${jobs.kind} = 'mail' and not ${jobs.payload} ? 'text')`))
          .returning({ id: jobs.id, kind: jobs.kind, to: recipient });
        if (!job) {
          const [erased] = await tx.select({ id: jobs.id }).from(jobs).where(failed);
          throw erased ? new AppError(409, JOBS_MESSAGES.erased) : new AppError(404, JOBS_MESSAGES.notFailed);
        }
        await recordAudit(tx, { action: 'job.retry', target: { type: 'job', id: job.id, label: job.to }, details: { kind: job.kind } });
      });
      noteQueued();
    },
  };
}

export type JobsService = ReturnType<typeof createJobsService>;
