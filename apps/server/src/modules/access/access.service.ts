import type { WindowNode } from '@reformes/domain';
import { MESSAGES, type PermissionInput, permissionName } from '@reformes/domain';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { features, menus, permissions, rolePermissions, roles, roleWindows } from '../../db/schema/index.ts';
import { setActiveById } from '../../db/set-active.ts';
import { conflict, invalid, notFound } from '../../http/app-error.ts';
import { pgErrorCode } from '../../http/pg-error.ts';
import { recordAudit } from '../audit/audit.service.ts';

const permissionColumns = {
  id: permissions.id,
  name: permissions.name,
  feature_id: permissions.feature_id,
  action: permissions.action,
  is_active: permissions.is_active,
  feature_name: features.name,
  feature_tag: features.tag,
};

/**
 * The menus ("windows") of these roles, each as a tree in catalogue order, in one query: a role without
 * windows is absent from the map. `(await windowsOfRoles(db, [1, 2])).get(1)`.
 */
export async function windowsOfRoles(db: Db, roleIds: number[]): Promise<Map<number, WindowNode[]>> {
  const rows = roleIds.length
    ? await db
        .select({
          role_id: roleWindows.role_id,
          id: menus.id,
          parent_id: menus.parent_id,
          name: menus.name,
          route: menus.route,
          title: menus.title,
        })
        .from(roleWindows)
        .innerJoin(menus, eq(menus.id, roleWindows.menu_id))
        .where(inArray(roleWindows.role_id, roleIds))
        .orderBy(asc(roleWindows.position), asc(menus.position))
    : [];
  const trees = new Map<number, WindowNode[]>();
  for (const roleId of new Set(rows.map((row) => row.role_id))) {
    const own = rows.filter((row) => row.role_id === roleId);
    const nodes = new Map<number, WindowNode>(
      own.map((row) => [row.id, { id: row.id, title: row.title, name: row.name, route: row.route, status: true, children: [] }]),
    );
    const roots: WindowNode[] = [];
    for (const row of own) {
      const node = nodes.get(row.id) as WindowNode;
      const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    trees.set(roleId, roots);
  }
  return trees;
}

export function createAccessService(db: Db) {
  /** The role's name, or a 404. */
  async function assertRole(id: number): Promise<string> {
    const [role] = await db.select({ name: roles.name }).from(roles).where(eq(roles.id, id));
    if (!role) throw notFound();
    return role.name;
  }

  async function permissionNameOf(executor: Pick<Db, 'select'>, id: number): Promise<string | undefined> {
    const [row] = await executor.select({ name: permissions.name }).from(permissions).where(eq(permissions.id, id));
    return row?.name;
  }

  async function featureOf(id: number) {
    const [feature] = await db.select().from(features).where(eq(features.id, id));
    if (!feature) throw invalid({ feature_id: ['La fonctionnalité système est requise'] });
    return feature;
  }

  async function permissionView(id: number) {
    const [row] = await db
      .select(permissionColumns)
      .from(permissions)
      .innerJoin(features, eq(features.id, permissions.feature_id))
      .where(eq(permissions.id, id));
    if (!row) throw notFound();
    return row;
  }

  /** A role's rights: one "profile" row per granted permission. */
  async function profileOf(roleId: number) {
    return db
      .select({
        id: rolePermissions.id,
        role_id: rolePermissions.role_id,
        is_active: rolePermissions.is_active,
        permission: permissionColumns,
      })
      .from(rolePermissions)
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
      .innerJoin(features, eq(features.id, permissions.feature_id))
      .where(eq(rolePermissions.role_id, roleId))
      .orderBy(asc(permissions.name));
  }

  return {
    listFeatures: () => db.select().from(features).orderBy(asc(features.id)),

    listPermissions: () =>
      db
        .select(permissionColumns)
        .from(permissions)
        .innerJoin(features, eq(features.id, permissions.feature_id))
        .orderBy(asc(permissions.name)),

    permissionView,

    /** One permission per new (feature, action) pair; a request whose pairs all exist is a conflict. */
    async createPermissions(input: PermissionInput) {
      const feature = await featureOf(input.feature_id);
      const created = await db.transaction(async (tx) => {
        const rows = await tx
          .insert(permissions)
          .values(input.actions.map((action) => ({ feature_id: feature.id, action, name: permissionName(feature.name, action) })))
          .onConflictDoNothing()
          .returning({ id: permissions.id, name: permissions.name });
        for (const row of rows)
          await recordAudit(tx, { action: 'permission.create', target: { type: 'permission', id: row.id, label: row.name } });
        return rows;
      });
      if (created.length === 0) throw conflict(MESSAGES.permissionExists);
      return Promise.all(created.map((row) => permissionView(row.id)));
    },

    async updatePermission(id: number, input: PermissionInput) {
      if (input.actions.length !== 1) throw invalid({ actions: [MESSAGES.permissionSingleAction] });
      const feature = await featureOf(input.feature_id);
      const action = input.actions[0];
      try {
        await db.transaction(async (tx) => {
          const updated = await tx
            .update(permissions)
            .set({ feature_id: feature.id, action, name: permissionName(feature.name, action), updated_at: new Date() })
            .where(eq(permissions.id, id))
            .returning({ id: permissions.id, name: permissions.name });
          if (updated.length === 0) throw notFound();
          await recordAudit(tx, { action: 'permission.update', target: { type: 'permission', id, label: updated[0].name } });
        });
      } catch (error) {
        if (pgErrorCode(error) === '23505') throw conflict(MESSAGES.permissionExists);
        throw error;
      }
      return permissionView(id);
    },

    async deletePermission(id: number) {
      const permission = await permissionView(id);
      const [{ used }] = await db
        .select({ used: sql<number>`count(*)::int` })
        .from(rolePermissions)
        .where(eq(rolePermissions.permission_id, id));
      if (used > 0) throw conflict(MESSAGES.permissionInUse);
      await db.transaction(async (tx) => {
        await tx.delete(permissions).where(eq(permissions.id, id));
        await recordAudit(tx, { action: 'permission.delete', target: { type: 'permission', id, label: permission.name } });
      });
    },

    async setPermissionActive(id: number, isActive: boolean) {
      await db.transaction(async (tx) => {
        if (!(await setActiveById(tx, permissions, id, isActive))) throw notFound();
        await recordAudit(tx, { action: 'permission.status', target: { type: 'permission', id }, details: { is_active: isActive } });
      });
      return permissionView(id);
    },

    /** `GET profiles`: every role with its rights, and the permissions that can be granted. */
    async profiles() {
      const roleRows = await db.select().from(roles).orderBy(asc(roles.id));
      const withRights = await Promise.all(roleRows.map(async (role) => ({ ...role, permissions: await profileOf(role.id) })));
      return { roles: withRights, permissions: await this.listPermissions() };
    },

    async profileOfRole(roleId: number) {
      const [role] = await db.select().from(roles).where(eq(roles.id, roleId));
      if (!role) throw notFound();
      return { ...role, permissions: await profileOf(roleId) };
    },

    /** Grants several permissions at once; a right already held (even deactivated) is simply active again. */
    async grant(roleId: number, permissionIds: number[]) {
      await assertRole(roleId);
      const found = await db
        .select({ id: permissions.id, name: permissions.name })
        .from(permissions)
        .where(inArray(permissions.id, permissionIds));
      if (found.length !== new Set(permissionIds).size) throw invalid({ permissions: ['Permission inconnue'] });
      await db.transaction(async (tx) => {
        await tx
          .insert(rolePermissions)
          .values(found.map((row) => ({ role_id: roleId, permission_id: row.id })))
          .onConflictDoUpdate({
            target: [rolePermissions.role_id, rolePermissions.permission_id],
            set: { is_active: true, updated_at: new Date() },
          });
        const names = found.map((row) => row.name).sort();
        await recordAudit(tx, { action: 'profile.grant', target: { type: 'role', id: roleId }, details: { permissions: names } });
      });
      return this.profileOfRole(roleId);
    },

    async copyRights(fromRoleId: number, toRoleId: number) {
      if (fromRoleId === toRoleId) throw invalid({ role_id: [MESSAGES.sameRole] });
      const fromName = await assertRole(fromRoleId);
      await assertRole(toRoleId);
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          insert into role_permissions (role_id, permission_id, is_active)
          select ${toRoleId}, permission_id, is_active from role_permissions where role_id = ${fromRoleId}
          on conflict (role_id, permission_id) do update set is_active = excluded.is_active or role_permissions.is_active`);
        await recordAudit(tx, { action: 'profile.copy', target: { type: 'role', id: toRoleId }, details: { from_role: fromName } });
      });
      return this.profileOfRole(toRoleId);
    },

    /** Revokes one right: `profileId` is the role-permission row. */
    async revoke(profileId: number) {
      await db.transaction(async (tx) => {
        const [deleted] = await tx
          .delete(rolePermissions)
          .where(eq(rolePermissions.id, profileId))
          .returning({ role_id: rolePermissions.role_id, permission_id: rolePermissions.permission_id });
        if (!deleted) throw notFound();
        const permission = await permissionNameOf(tx, deleted.permission_id);
        await recordAudit(tx, { action: 'profile.revoke', target: { type: 'role', id: deleted.role_id }, details: { permission } });
      });
    },

    async setProfileActive(profileId: number, isActive: boolean) {
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(rolePermissions)
          .set({ is_active: isActive, updated_at: new Date() })
          .where(eq(rolePermissions.id, profileId))
          .returning({ role_id: rolePermissions.role_id, permission_id: rolePermissions.permission_id });
        if (!row) throw notFound();
        const permission = await permissionNameOf(tx, row.permission_id);
        await recordAudit(tx, {
          action: 'profile.status',
          target: { type: 'role', id: row.role_id },
          details: { permission, is_active: isActive },
        });
        return row;
      });
      return this.profileOfRole(updated.role_id);
    },

    async toggleProfile(profileId: number) {
      const [row] = await db
        .select({ is_active: rolePermissions.is_active })
        .from(rolePermissions)
        .where(eq(rolePermissions.id, profileId));
      if (!row) throw notFound();
      return this.setProfileActive(profileId, !row.is_active);
    },

    /** The role's menu ("windows") as a tree, in catalogue order. */
    async windowsOf(roleId: number): Promise<WindowNode[]> {
      return (await windowsOfRoles(db, [roleId])).get(roleId) ?? [];
    },

    async copyWindows(oldRoleId: number, newRoleId: number) {
      if (oldRoleId === newRoleId) throw invalid({ new_id: [MESSAGES.sameRole] });
      const fromName = await assertRole(oldRoleId);
      await assertRole(newRoleId);
      await db.transaction(async (tx) => {
        await tx.delete(roleWindows).where(eq(roleWindows.role_id, newRoleId));
        await tx.execute(
          sql`insert into role_windows (role_id, menu_id, position) select ${newRoleId}, menu_id, position from role_windows where role_id = ${oldRoleId}`,
        );
        await recordAudit(tx, { action: 'role.windows_copy', target: { type: 'role', id: newRoleId }, details: { from_role: fromName } });
      });
      return this.windowsOf(newRoleId);
    },
  };
}

export type AccessService = ReturnType<typeof createAccessService>;
