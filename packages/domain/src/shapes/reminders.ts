import { z } from '../zod-locale.ts';
import { envelopeShape, type Shape } from './envelope.ts';

/** The caller's two digests: true when received (issue 32). */
export const reminderPreferencesShape = z.object({ structure_digest: z.boolean(), portfolio_digest: z.boolean() });
export const reminderPreferencesAnswer = envelopeShape(reminderPreferencesShape);

/** One run of the reminders and what became of its mails (ISO 8601 strings: a nullable codec has no OpenAPI type). */
export const reminderRunShape = z.object({
  id: z.number(),
  trigger: z.enum(['schedule', 'manual']),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** Mails queued by the run, then how many have left, are waiting for the SMTP server, or failed for good. */
  mails: z.number(),
  delivered: z.number(),
  waiting: z.number(),
  failed: z.number(),
  /** Digests that could not be queued (logged), retried at the next run. */
  errors: z.number(),
});
export type ReminderRun = Shape<typeof reminderRunShape>;

/** The screen « Rappels »: the schedule, the settings it applies, and the last run. */
export const remindersStatusShape = z.object({
  daily_at: z.string(),
  no_follow_up_days: z.number(),
  last_run: reminderRunShape.nullable(),
});
export type RemindersStatus = Shape<typeof remindersStatusShape>;
export const remindersStatusAnswer = envelopeShape(remindersStatusShape);
export const reminderRunAnswer = envelopeShape(reminderRunShape);
