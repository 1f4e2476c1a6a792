import type { Role, WindowNode } from '@reformes/domain';
import { ACTION_LABELS, type Action, type ProfileCopyInput, type ProfileGrantInput, type RolesWindowsCopyInput } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { type ApiResponse, api } from '../../api/client.ts';

/** A feature × action pair (spec §3 Permission), with its feature's catalogue names. */
export interface Permission {
  id: number;
  /** "natures.list" */
  name: string;
  feature_id: number;
  action: Action;
  is_active: boolean;
  feature_name: string;
  feature_tag: string;
}

/** An entry of the feature catalogue (spec §3). */
export interface Feature {
  id: number;
  name: string;
  link: string;
  tag: string;
}

/** One right of a role: `id` names the role-permission row that `PATCH profiles/{id}` revokes. */
export interface RoleRight {
  id: number;
  role_id: number;
  is_active: boolean;
  permission: Permission;
}

export interface RoleProfile extends Omit<Role, 'windows'> {
  permissions: RoleRight[];
}

/** `GET profiles`: every role with its rights, and every permission that can be granted. */
export interface Profiles {
  roles: RoleProfile[];
  permissions: Permission[];
}

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

export type { Role, WindowNode };
