import { z } from '../zod-locale.ts';
import { type Shape, timestamp } from './envelope.ts';

/** Every reference row carries its state and its times (spec §3). */
const referenceRow = { id: z.number(), is_active: z.boolean(), created_at: timestamp, updated_at: timestamp };

export const sectorShape = z.object({ ...referenceRow, libsecteur: z.string() });
export type Sector = Shape<typeof sectorShape>;

/** A structure, with its sector's label (spec §3: "sector (with libsecteur)"). */
export const structureShape = z.object({
  ...referenceRow,
  designation: z.string(),
  sigl: z.string(),
  adresse_struct: z.string(),
  email: z.string(),
  telephone: z.string(),
  sector_id: z.number(),
  sector: z.object({ id: z.number(), libsecteur: z.string() }).nullable(),
});
export type Structure = Shape<typeof structureShape>;

/** `code` names a seeded nature (NATURES); null for those an administrator adds. */
export const natureShape = z.object({ ...referenceRow, libnature: z.string(), code: z.string().nullable() });
export type Nature = Shape<typeof natureShape>;

export const coverShape = z.object({ ...referenceRow, lib_couvert: z.string() });
export type Cover = Shape<typeof coverShape>;

export const entityShape = z.object({ ...referenceRow, libelle: z.string() });
export type AdministrativeEntity = Shape<typeof entityShape>;

/** A node of a role's menu ("windows", spec §3 Menu entry); `title` marks a group heading. */
export interface WindowNode {
  id: number;
  title: boolean;
  name: string;
  route: string | null;
  status: boolean;
  children: WindowNode[];
}
export const windowNodeShape: z.ZodType<WindowNode, WindowNode> = z
  .lazy(() =>
    z.object({
      id: z.number(),
      title: z.boolean(),
      name: z.string(),
      route: z.string().nullable(),
      status: z.boolean(),
      children: z.array(windowNodeShape),
    }),
  )
  .meta({ id: 'WindowNode' });

/** A role as a row of its table (its rights are in `profiles`). */
export const roleRowShape = z.object({
  ...referenceRow,
  name: z.string(),
  canOverwrite: z.boolean(),
  guard_name: z.string(),
  is_builtin: z.boolean(),
  requires_two_factor: z.boolean(),
});

/** A role with its menu tree, as the roles list shows it. */
export const roleShape = roleRowShape.extend({ windows: z.array(windowNodeShape) });
export type Role = Shape<typeof roleShape>;
