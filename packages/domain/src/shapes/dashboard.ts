import { z } from '../zod-locale.ts';
import { envelopeShape, type Shape } from './envelope.ts';

/** The dashboard's counters (spec §2.6), within the caller's scope. */
export const dashboardShape = z.object({
  total_reforme: z.number(),
  total_reforme_admin: z.number(),
  total_reforme_ins: z.number(),
  total_pending: z.number(),
  users: z.number(),
  total_structures: z.number(),
  by_etat: z.array(z.object({ etat_mor: z.string(), label: z.string(), total: z.number() })),
  by_nature: z.array(z.object({ id: z.number(), code: z.string().nullable(), libnature: z.string(), total: z.number() })),
});
export type DashboardView = Shape<typeof dashboardShape>;

/** The figures a stat card may show. */
export type DashboardCounter = Exclude<keyof DashboardView, 'by_etat' | 'by_nature'>;

export const dashboardAnswer = envelopeShape(dashboardShape);
