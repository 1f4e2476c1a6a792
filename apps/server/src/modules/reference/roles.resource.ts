import { MESSAGES, roleSchema } from '@reformes/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles } from '../../db/schema/index.ts';
import { conflict } from '../../http/app-error.ts';
import { crudRoutes } from '../../http/crud-routes.ts';

/** The five built-in roles keep their names: menus, scope and workflow depend on them. */
async function protectBuiltinRoles(db: Db, id: number, change: { kind: 'update'; body: { name: string } } | { kind: 'delete' }) {
  const [role] = await db.select({ name: roles.name, is_builtin: roles.is_builtin }).from(roles).where(eq(roles.id, id));
  if (!role?.is_builtin) return;
  if (change.kind === 'delete' || change.body.name !== role.name) throw conflict(MESSAGES.builtinRole);
}

export const rolesRoutes = crudRoutes({
  path: 'roles',
  feature: 'roles',
  tag: 'Rôles',
  table: roles,
  schema: roleSchema,
  labelColumn: roles.name,
  searchColumns: [roles.name],
  inUseMessage: MESSAGES.roleInUse,
  beforeChange: protectBuiltinRoles,
});
