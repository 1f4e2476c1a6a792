import { MESSAGES, ROLES_ROUTES, type roleSchema } from '@reformes/domain';
import { roles } from '../../db/schema/index.ts';
import type { CrudResource } from './crud-service.ts';
import { protectBuiltinRoles, roleView } from './reference.service.ts';

/** Roles: a reference list whose rows carry their menu tree, and whose five built-in names cannot change. */
export const rolesResource = {
  routes: ROLES_ROUTES,
  table: roles,
  labelColumn: roles.name,
  searchColumns: [roles.name],
  inUseMessage: MESSAGES.roleInUse,
  beforeChange: protectBuiltinRoles,
  select: roleView,
  audit: { target: 'role', actions: { create: 'role.create', update: 'role.update', delete: 'role.delete', status: 'role.status' } },
} satisfies CrudResource<typeof roles, typeof roleSchema>;
