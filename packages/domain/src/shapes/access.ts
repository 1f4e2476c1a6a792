import { ACTIONS } from '../permissions.ts';
import { z } from '../zod-locale.ts';
import { envelopeShape, type Shape } from './envelope.ts';
import { roleRowShape, windowNodeShape } from './reference.ts';

/** An entry of the feature catalogue (spec §3). */
export const featureShape = z.object({ id: z.number(), name: z.string(), link: z.string(), tag: z.string() });
export type Feature = Shape<typeof featureShape>;

/** A feature × action pair (spec §3 Permission), with its feature's catalogue names. */
export const permissionShape = z.object({
  id: z.number(),
  /** "natures.list" */
  name: z.string(),
  feature_id: z.number(),
  action: z.enum(ACTIONS),
  is_active: z.boolean(),
  feature_name: z.string(),
  feature_tag: z.string(),
});
export type Permission = Shape<typeof permissionShape>;

/** One right of a role: `id` names the role-permission row that `PATCH profiles/{id}` revokes. */
export const roleRightShape = z.object({ id: z.number(), role_id: z.number(), is_active: z.boolean(), permission: permissionShape });
export type RoleRight = Shape<typeof roleRightShape>;

/** A role with its rights. */
export const roleProfileShape = roleRowShape.extend({ permissions: z.array(roleRightShape) });
export type RoleProfile = Shape<typeof roleProfileShape>;

/** `GET profiles`: every role with its rights, and every permission that can be granted. */
export const profilesShape = z.object({ roles: z.array(roleProfileShape), permissions: z.array(permissionShape) });
export type Profiles = Shape<typeof profilesShape>;

/** The windows of a role, after a copy. */
export const windowsShape = z.array(windowNodeShape);

export const permissionAnswer = envelopeShape(permissionShape);
/** `POST permissions`: one right per action asked, all created at once. */
export const permissionsAnswer = envelopeShape(z.array(permissionShape));
export const roleProfileAnswer = envelopeShape(roleProfileShape);
