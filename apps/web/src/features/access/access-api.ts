import {
  ACCESS_ROUTES,
  ACTION_LABELS,
  type Feature,
  type Permission,
  type ProfileCopyInput,
  type ProfileGrantInput,
  type Profiles,
  type Role,
  type RoleProfile,
  type RoleRight,
  type RolesWindowsCopyInput,
  type WindowNode,
} from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

/** "Secteurs : Lister" */
export function rightLabel(permission: Pick<Permission, 'feature_tag' | 'action'>): string {
  return `${permission.feature_tag} : ${ACTION_LABELS[permission.action] ?? permission.action}`;
}

export const PROFILES_KEY = ['profiles'] as const;

export const profilesQuery = queryOptions({
  queryKey: PROFILES_KEY,
  queryFn: ({ signal }) => call(ACCESS_ROUTES.profiles, { signal }),
  select: (response) => response.data,
});

/** "Ajouter un droit": several permissions at once. */
export function grantRights(input: ProfileGrantInput) {
  return call(ACCESS_ROUTES.grant, { body: input });
}

/** "Copier vers": the rights of role `id` are added to role `role_id`. */
export function copyRights(input: ProfileCopyInput) {
  return call(ACCESS_ROUTES.copyRights, { body: input });
}

/** "Retirer": `rightId` is the role-permission row. */
export function revokeRight(rightId: number) {
  return call(ACCESS_ROUTES.revokePatch, { params: { id: rightId } });
}

/** The roles list's "Copier": the menu of `old_id` replaces the menu of `new_id`. */
export function copyWindows(input: RolesWindowsCopyInput) {
  return call(ACCESS_ROUTES.copyWindows, { body: input });
}

export type { Feature, Permission, Profiles, Role, RoleProfile, RoleRight, WindowNode };
