/**
 * What a row of `jobs` holds (db/schema, table `jobs`): each kind of work with the payload its schema allows. Below
 * the queue (jobs/queue.ts writes rows, jobs/worker.ts reads them), the mailer (a mail's fields) and the backups
 * (db/logical-dump.ts refuses a dump with a row its kind refuses): the table's contract, so it sits with the tables.
 */
import { TEXT_LIMITS } from '@reformes/domain';
import { z } from 'zod';

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

/** What a mail is: to, subject, text, html (`secretUntil` is the queue's, not the mail's). */
export type MailMessage = Omit<JobPayloads['mail'], 'secretUntil'>;
