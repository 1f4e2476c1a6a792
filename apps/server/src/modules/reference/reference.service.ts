import { MESSAGES } from '@reformes/domain';
import { asc, count, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { roles, sectors, structures } from '../../db/schema/index.ts';
import { conflict } from '../../http/app-error.ts';
import { sliced } from '../../http/pagination.ts';
import { windowsOfRoles } from '../access/access.service.ts';
import type { CrudView } from './crud-service.ts';

/** Structures come with their sector (spec §3: "sector (with libsecteur)"). */
export function structureView(db: Db): CrudView {
  return {
    rows(where: SQL | undefined, limit?: number, offset?: number) {
      const query = db
        .select({ ...getTableColumns(structures), sector: { id: sectors.id, libsecteur: sectors.libsecteur } })
        .from(structures)
        .leftJoin(sectors, eq(sectors.id, structures.sector_id))
        .where(where)
        .orderBy(asc(structures.id))
        .$dynamic();
      return sliced(query, limit, offset);
    },
    // The search looks at the sector's label too: the count needs the same join.
    count: (where: SQL | undefined) =>
      db.select({ total: count() }).from(structures).leftJoin(sectors, eq(sectors.id, structures.sector_id)).where(where),
  };
}

/** Roles come with their menu tree ("windows", spec §3 Role): the windows of a whole page in one query. */
export function roleView(db: Db): CrudView {
  return {
    async rows(where: SQL | undefined, limit?: number, offset?: number) {
      const query = db.select().from(roles).where(where).orderBy(asc(roles.id)).$dynamic();
      const rows = await sliced(query, limit, offset);
      const windows = await windowsOfRoles(
        db,
        rows.map((role) => role.id),
      );
      return rows.map((role) => ({ ...role, windows: windows.get(role.id) ?? [] }));
    },
  };
}

/** The five built-in roles keep their names: menus, scope and workflow depend on them. */
export async function protectBuiltinRoles(db: Db, id: number, change: { kind: 'update'; body: { name: string } } | { kind: 'delete' }) {
  const [role] = await db.select({ name: roles.name, is_builtin: roles.is_builtin }).from(roles).where(eq(roles.id, id));
  if (!role?.is_builtin) return;
  if (change.kind === 'delete' || change.body.name !== role.name) throw conflict(MESSAGES.builtinRole);
}
