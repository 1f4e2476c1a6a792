import type pg from 'pg';
import type { Db } from '../db/client.ts';
import { type JobKind, type JobPayloads, type MailMessage, refusedJobRow } from '../db/job-payloads.ts';
import { jobs } from '../db/schema/index.ts';
import { currentRequest } from '../http/request-context.ts';

/**
 * After a pg_restore (whose archive is not read beforehand): the restored rows of `jobs` that `refusedJobRow` refuses
 * are deleted, one page at a time; answers what was removed (`n° 12, mail : attachments`) for the operator.
 */
export async function removeRefusedJobs(client: Pick<pg.ClientBase, 'query'>): Promise<string[]> {
  const removed: string[] = [];
  for (let after = 0; ; ) {
    const { rows } = await client.query<{ id: number; kind: string; payload: unknown; done_at: Date | null; failed_at: Date | null }>(
      'select id::int as id, kind, payload, done_at, failed_at from jobs where id > $1 order by id limit 500',
      [after],
    );
    if (rows.length === 0) return removed;
    for (const row of rows) {
      const refused = refusedJobRow(row);
      if (refused === undefined) continue;
      await client.query('delete from jobs where id = $1', [row.id]);
      removed.push(`n° ${row.id}, ${row.kind.slice(0, 40)} : ${refused}`);
    }
    after = rows[rows.length - 1].id;
  }
}

export type ScheduledKind = 'purge-uploads' | 'audit-retention' | 'backup' | 'reminders';

/** How many times a job is tried: with delays growing to a minute, a mail outlasts a day of an SMTP server down. */
export const MAX_ATTEMPTS: Record<JobKind, number> = {
  mail: 1_500,
  'reset-link': 10,
  'purge-uploads': 3,
  'audit-retention': 3,
  backup: 3,
  reminders: 3,
};

type Writer = Pick<Db, 'insert'>;

/**
 * Queues a job in the caller's transaction: it exists if and only if the change that causes it is committed, and a
 * worker of any instance does it once it is. Answers its id.
 */
export async function enqueue<K extends JobKind>(executor: Writer, kind: K, payload: JobPayloads[K]): Promise<number> {
  const [job] = await executor
    .insert(jobs)
    .values({ kind, payload: payload as unknown as Record<string, unknown>, max_attempts: MAX_ATTEMPTS[kind] })
    .returning({ id: jobs.id });
  noteQueued();
  return job.id;
}

/** The request being served made a job due (queued one, or sent a failed one again): its worker looks once it answers. */
export function noteQueued(): void {
  const request = currentRequest();
  if (request) queuedBy.add(request);
}

/** The requests that queued a job: once answered (their transaction committed), the worker looks at once. */
const queuedBy = new WeakSet<object>();
export const hasQueued = (request: object) => queuedBy.has(request);

/**
 * A mail, delivered by the worker after the commit. One that holds a secret (a reset link, a temporary password) names
 * when it expires: a mail still waiting then is failed and its body erased, as is one that fails for good (item 12).
 */
export const enqueueMail = (executor: Writer, message: MailMessage, { secretUntil }: { secretUntil?: Date } = {}) =>
  enqueue(executor, 'mail', secretUntil ? { ...message, secretUntil: secretUntil.toISOString() } : message);
