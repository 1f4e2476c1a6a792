import { TEXT_LIMITS } from '@reformes/domain';
import type pg from 'pg';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { jobs } from '../db/schema/index.ts';
import { currentRequest } from '../modules/audit/audit-context.ts';

/** The longest subject a mail line takes (RFC 5322), and the longest body, text or HTML, a mail of ours has. */
const MAIL_SUBJECT_MAX = 998;
const MAIL_BODY_MAX = 1024 * 1024;

/**
 * A mail, exactly: one address, a subject, a text and maybe an HTML body (the reminders' tables and links), all
 * strings; `secretUntil` (ISO) marks a body that holds a secret (a reset link, a temporary password) valid until then.
 * Nothing else of a row reaches nodemailer: no sender, header, attachment, file or URL (issue 40, item 3).
 */
export const mailPayloadSchema = z.strictObject({
  to: z.email().max(TEXT_LIMITS.email),
  subject: z.string().max(MAIL_SUBJECT_MAX),
  text: z.string().max(MAIL_BODY_MAX),
  html: z.string().max(MAIL_BODY_MAX).optional(),
  secretUntil: z.iso.datetime().optional(),
});

const slotSchema = z.strictObject({ slot: z.iso.datetime() });

/**
 * The kinds of work the worker knows, with what each needs (their French names: JOB_KIND_LABELS, packages/domain).
 * Every row is read through its kind's schema before its handler sees it; a row that fails it is failed at once.
 */
export const jobPayloadSchemas = {
  /** A mail to deliver: retried until the SMTP server takes it. */
  mail: mailPayloadSchema,
  /**
   * "Mot de passe oublié": looked at after the answer, the same for every email (auth.service.ts); `client` (its
   * `clientKey`, issue 40) gates and names its audit rows, absent from the jobs queued before.
   */
  'reset-link': z.strictObject({ email: z.string().max(TEXT_LIMITS.email), client: z.string().max(100).optional() }),
  /** Scheduled (jobs/schedule.ts), once per slot: the uploads no reform claimed within a day go. */
  'purge-uploads': slotSchema,
  /** Scheduled: the audit entries older than AUDIT_RETENTION_DAYS go. */
  'audit-retention': slotSchema,
  /** Scheduled at BACKUP_DAILY_AT when it is set: a backup, as "Effectuer une sauvegarde" makes, with its retention. */
  backup: slotSchema,
  /** Scheduled daily (issue 32): the reminder digests not yet sent this week (modules/reminders). */
  reminders: slotSchema,
};
export type JobPayloads = { [K in keyof typeof jobPayloadSchemas]: z.infer<(typeof jobPayloadSchemas)[K]> };
export type JobKind = keyof JobPayloads;
export const isJobKind = (kind: string): kind is JobKind => Object.hasOwn(jobPayloadSchemas, kind);
/** The fields of a payload its schema refuses, for a French message: `to`, `attachments`… */
export function refusedFields(error: { issues: Array<{ path: PropertyKey[]; keys?: string[] }> }): string {
  const fields = error.issues.flatMap((issue) => (issue.keys?.length ? issue.keys : [issue.path.map(String).join('.') || 'contenu']));
  return [...new Set(fields)].slice(0, 5).join(', ');
}

/**
 * Why a row of `jobs` read from a backup is refused, or undefined: its kind unknown, or its payload not its kind's (a
 * waiting job's whole; a done or failed one's with fields left out: a delivered mail keeps its address and subject).
 * A restore is untrusted input (issue 40, item 3): db/logical-dump.ts refuses a backup with such a row.
 */
export function refusedJobRow(row: { kind?: unknown; payload?: unknown; done_at?: unknown; failed_at?: unknown }): string | undefined {
  if (typeof row.kind !== 'string' || !isJobKind(row.kind)) return 'type inconnu';
  const schema = jobPayloadSchemas[row.kind];
  const settled = (row.done_at ?? null) !== null || (row.failed_at ?? null) !== null;
  const parsed = (settled ? schema.partial() : schema).safeParse(row.payload);
  return parsed.success ? undefined : refusedFields(parsed.error);
}

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

/** What a mail is: to, subject, text, html (`secretUntil` is the queue's, not the mail's). */
export type MailMessage = Omit<JobPayloads['mail'], 'secretUntil'>;

/**
 * A mail, delivered by the worker after the commit. One that holds a secret (a reset link, a temporary password) names
 * when it expires: a mail still waiting then is failed and its body erased, as is one that fails for good (item 12).
 */
export const enqueueMail = (executor: Writer, message: MailMessage, { secretUntil }: { secretUntil?: Date } = {}) =>
  enqueue(executor, 'mail', secretUntil ? { ...message, secretUntil: secretUntil.toISOString() } : message);
