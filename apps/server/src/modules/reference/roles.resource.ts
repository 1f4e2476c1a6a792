import { MESSAGES, roleSchema } from '@reformes/domain';
import { asc, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles } from '../../db/schema/index.ts';
import { conflict } from '../../http/app-error.ts';
import { crudRoutes } from '../../http/crud-routes.ts';
import { sliced } from '../../http/pagination.ts';
import { createAccessService } from '../access/access.service.ts';

/** The five built-in roles keep their names: menus, scope and workflow depend on them. */
async function protectBuiltinRoles(db: Db, id: number, change: { kind: 'update'; body: { name: string } } | { kind: 'delete' }) {
  const [role] = await db.select({ name: roles.name, is_builtin: roles.is_builtin }).from(roles).where(eq(roles.id, id));
  if (!role?.is_builtin) return;
  if (change.kind === 'delete' || change.body.name !== role.name) throw conflict(MESSAGES.builtinRole);
}

/** Roles come with their menu tree ("windows", spec §3 Role). */
function roleView(db: Db) {
  const access = createAccessService(db);
  return {
    async rows(where: SQL | undefined, limit?: number, offset?: number) {
      const query = db.select().from(roles).where(where).orderBy(asc(roles.id)).$dynamic();
      const rows = await sliced(query, limit, offset);
      return Promise.all(rows.map(async (role) => ({ ...role, windows: await access.windowsOf(role.id) })));
    },
  };
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
  select: roleView,
  audit: { target: 'role', actions: { create: 'role.create', update: 'role.update', delete: 'role.delete', status: 'role.status' } },
});
