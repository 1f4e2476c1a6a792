import { z } from '../zod-locale.ts';
import { type Shape, timestamp } from './envelope.ts';

/**
 * One queued job as the admin sees it (issue 31): who a mail goes to and its subject, never its body (it may hold a
 * reset link or a temporary password).
 */
export const jobRowShape = z.object({
  id: z.number(),
  kind: z.string(),
  /** The mail's address, or the email of a reset-link request; null for other kinds. */
  to: z.string().nullable(),
  /** A mail's subject; null for other kinds. */
  subject: z.string().nullable(),
  attempts: z.number(),
  max_attempts: z.number(),
  last_error: z.string().nullable(),
  run_at: timestamp,
  created_at: timestamp,
  /** ISO 8601, null while the job is not failed (the server writes the string: a nullable codec has no OpenAPI type). */
  failed_at: z.string().nullable(),
});
export type JobRow = Shape<typeof jobRowShape>;
