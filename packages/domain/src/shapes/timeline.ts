import { z } from '../zod-locale.ts';
import { type Shape, timestamp } from './envelope.ts';

/**
 * One line of a reform's timeline (issue 32, `GET reformes/{id}/history`): a row created or deleted, a field changed
 * with its values before and after, or a step of the workflow; who did it (name, role, structure) and when.
 */
export const timelineLineShape = z.object({
  /** `c<n>` for a change, `w<n>` for a workflow step: unique within the timeline. */
  key: z.string(),
  at: timestamp,
  kind: z.string(),
  /** create, update, delete; for the workflow, its event (transmission, retour…). */
  action: z.string(),
  entity_id: z.number(),
  /** The column changed (update), or `stage` for a workflow step; its French label beside it. */
  field: z.string().nullable(),
  field_label: z.string().nullable(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  /** A workflow step's instruction (a return for correction). */
  instruction: z.string().nullable(),
  actor: z.object({ name: z.string(), role: z.string().nullable(), structure: z.string().nullable() }).nullable(),
});
export type TimelineLine = Shape<typeof timelineLineShape>;
