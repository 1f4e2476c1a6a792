import { z } from '../zod-locale.ts';
import { envelopeShape } from './envelope.ts';

/** `GET health` and `health/ready`: the service answers, and on which engine (the embedded cluster or PostgreSQL). */
export const healthShape = z.object({ status: z.literal('ok'), database: z.enum(['embedded', 'postgresql']) });
export const healthAnswer = envelopeShape(healthShape);
