import {
  type Action,
  DEFAULT_GRANTS,
  FEATURES,
  GUARD_NAME,
  MENUS,
  type MenuEntry,
  NATURES,
  permissionName,
  ROLE_NAMES,
} from '@reformes/domain';
import { eq, sql } from 'drizzle-orm';
import type { Db, Transaction } from '../client.ts';
import { features, menus, natures, permissions, rolePermissions, roles, roleWindows } from '../schema/index.ts';

type Tx = Transaction;

async function seedMenus(tx: Tx, roleIds: Map<string, number>) {
  const menuIds = new Map<string, number>();
  let position = 0;
  async function menuIdOf(entry: MenuEntry, parentId: number | null): Promise<number> {
    const key = `${parentId ?? ''}|${entry.name}|${entry.route ?? ''}`;
    const known = menuIds.get(key);
    if (known) return known;
    const [row] = await tx
      .insert(menus)
      .values({ name: entry.name, route: entry.route ?? null, title: !entry.route, parent_id: parentId, position: position++ })
      .returning({ id: menus.id });
    menuIds.set(key, row.id);
    return row.id;
  }
  for (const [role, entries] of Object.entries(MENUS)) {
    const roleId = roleIds.get(role);
    if (!roleId) continue;
    let order = 0;
    const walk = async (list: MenuEntry[], parentId: number | null) => {
      for (const entry of list) {
        const menuId = await menuIdOf(entry, parentId);
        await tx.insert(roleWindows).values({ role_id: roleId, menu_id: menuId, position: order++ }).onConflictDoNothing();
        if (entry.children) await walk(entry.children, menuId);
      }
    };
    await walk(entries, null);
  }
}

/**
 * Roles, the feature catalogue, the permissions and default rights of
 * spec §6, the menus and the natures. Runs once, on an empty database: afterwards these
 * rows belong to the administrators, and re-seeding would undo their changes.
 */
export async function seedReferenceData(db: Db): Promise<boolean> {
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(roles);
  if (count > 0) return false;
  await db.transaction(async (tx) => {
    const roleRows = await tx
      .insert(roles)
      .values(ROLE_NAMES.map((name) => ({ name, guard_name: GUARD_NAME, is_builtin: true, canOverwrite: false })))
      .returning({ id: roles.id, name: roles.name });
    const roleIds = new Map(roleRows.map((row) => [row.name, row.id]));

    const featureRows = await tx
      .insert(features)
      .values(FEATURES.map((feature) => ({ ...feature })))
      .returning({ id: features.id, name: features.name });
    // The permissions some role holds by default; administrators create the other pairs.
    const featureIds = new Map(featureRows.map((row) => [row.name, row.id]));
    const pairs = new Map<string, { feature_id: number; action: Action; name: string }>();
    for (const grants of Object.values(DEFAULT_GRANTS)) {
      for (const [feature, actions] of Object.entries(grants)) {
        for (const action of actions ?? []) {
          pairs.set(permissionName(feature, action), {
            feature_id: featureIds.get(feature) as number,
            action,
            name: permissionName(feature, action),
          });
        }
      }
    }
    const permissionRows = await tx
      .insert(permissions)
      .values([...pairs.values()])
      .returning({ id: permissions.id, name: permissions.name });
    const permissionIds = new Map(permissionRows.map((row) => [row.name, row.id]));

    for (const [role, grants] of Object.entries(DEFAULT_GRANTS)) {
      const values = Object.entries(grants).flatMap(([feature, actions]) =>
        (actions ?? []).map((action) => ({
          role_id: roleIds.get(role) as number,
          permission_id: permissionIds.get(permissionName(feature, action)) as number,
        })),
      );
      if (values.length > 0) await tx.insert(rolePermissions).values(values);
    }
    await seedMenus(tx, roleIds);
    for (const nature of NATURES) {
      const existing = await tx.select({ id: natures.id }).from(natures).where(eq(natures.code, nature.code));
      if (existing.length === 0) await tx.insert(natures).values({ libnature: nature.label, code: nature.code });
    }
  });
  return true;
}
