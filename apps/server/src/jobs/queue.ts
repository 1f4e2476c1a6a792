import type { Db } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { currentRequest } from '../modules/audit/audit-context.ts';

/** The kinds of work the worker knows, with what each needs (their French names: JOB_KIND_LABELS, packages/domain). */
export interface JobPayloads {
  /** A mail to deliver: retried until the SMTP server takes it. */
  mail: MailMessage;
  /**
   * "Mot de passe oublié": looked at after the answer, the same for every email (auth.service.ts); `client` (its
   * `clientKey`, issue 40) gates and names its audit rows, absent from the jobs queued before.
   */
  'reset-link': { email: string; client?: string };
  /** Scheduled (jobs/schedule.ts), once per slot: the uploads no reform claimed within a day go. */
  'purge-uploads': { slot: string };
  /** Scheduled: the audit entries older than AUDIT_RETENTION_DAYS go. */
  'audit-retention': { slot: string };
  /** Scheduled at BACKUP_DAILY_AT when it is set: a backup, as "Effectuer une sauvegarde" makes, with its retention. */
  backup: { slot: string };
  /** Scheduled daily (issue 32): the reminder digests not yet sent this week (modules/reminders). */
  reminders: { slot: string };
}
export type JobKind = keyof JobPayloads;
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

/** A mail, delivered by the worker after the commit (`enqueue(tx, 'mail', message)`). */
export const enqueueMail = (executor: Writer, message: MailMessage) => enqueue(executor, 'mail', message);
