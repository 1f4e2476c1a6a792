import {
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
import { type ApiResponse, api } from '../../api/client.ts';

/** "Secteurs : Lister" */
export function rightLabel(permission: Pick<Permission, 'feature_tag' | 'action'>): string {
  return `${permission.feature_tag} : ${ACTION_LABELS[permission.action] ?? permission.action}`;
}

export const PROFILES_KEY = ['profiles'] as const;

export const profilesQuery = queryOptions({
  queryKey: PROFILES_KEY,
  queryFn: ({ signal }) => api.get<ApiResponse<Profiles>>('profiles', { action: 'list', signal }),
  select: (response) => response.data,
});

/** "Ajouter un droit": several permissions at once. */
export function grantRights(input: ProfileGrantInput) {
  return api.post<ApiResponse<RoleProfile>>('profiles', { action: 'add', body: input });
}

/** "Copier vers": the rights of role `id` are added to role `role_id`. */
export function copyRights(input: ProfileCopyInput) {
  return api.post<ApiResponse<RoleProfile>>('profiles-copy', { action: 'add', body: input });
}

/** "Retirer": `rightId` is the role-permission row. */
export function revokeRight(rightId: number) {
  return api.patch<{ message: string }>(`profiles/${rightId}`, { action: 'delete' });
}

/** The roles list's "Copier": the menu of `old_id` replaces the menu of `new_id`. */
export function copyWindows(input: RolesWindowsCopyInput) {
  return api.post<ApiResponse<WindowNode[]>>('roles-windows-copy', { action: 'add', body: input });
}

export type { Feature, Permission, Profiles, Role, RoleProfile, RoleRight, WindowNode };
