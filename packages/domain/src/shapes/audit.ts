import { AUDIT_RESULTS } from '../audit.ts';
import { z } from '../zod-locale.ts';
import { type Shape, timestamp } from './envelope.ts';

/** One entry of the security audit log (issue 14): who did what, to what, with which result, when, from where. */
export const auditEntryShape = z.object({
  id: z.number(),
  created_at: timestamp,
  actor_id: z.number().nullable(),
  actor_email: z.string().nullable(),
  action: z.string(),
  target_type: z.string().nullable(),
  target_id: z.number().nullable(),
  target_label: z.string().nullable(),
  result: z.enum(Object.keys(AUDIT_RESULTS) as [keyof typeof AUDIT_RESULTS]),
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = Shape<typeof auditEntryShape>;
