import { z } from '../zod-locale.ts';
import { envelopeShape } from './envelope.ts';

/** `GET health` and `health/ready`: the service answers, on which engine (the embedded cluster or PostgreSQL), in which release. */
export const healthShape = z.object({
  status: z.literal('ok'),
  database: z.enum(['embedded', 'postgresql']),
  /** The release this instance runs (issue 43): during a rolling upgrade, the load balancer's view of who is who. */
  version: z.string(),
});
export const healthAnswer = envelopeShape(healthShape);
