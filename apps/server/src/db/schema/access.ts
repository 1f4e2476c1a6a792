import type { Action } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  integer,
  type PgColumn,
  type PgColumnBuilderBase,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { id, isActive, refersTo, timestamps } from './columns.ts';
import { users } from './users.ts';

export const roles = pgTable(
  'roles',
  {
    id: id(),
    name: text().notNull(),
    canOverwrite: boolean().notNull().default(false),
    guard_name: text().notNull().default('api'),
    /** The five roles of spec §6: they cannot be renamed or deleted. */
    is_builtin: boolean().notNull().default(false),
    is_active: isActive(),
    /** Issue 18: its users must sign in with a second factor (led through enrolment first). */
    requires_two_factor: boolean().notNull().default(false),
    ...timestamps,
  },
  (t) => [uniqueIndex('roles_name_unique').using('btree', sql`lower(${t.name})`)],
);

/**
 * A many-to-many link, keyed by its two ids; `position` orders the entries of the first side:
 * `rankedLink('user_roles', { user_id: …, role_id: … })`.
 */
function rankedLink<TName extends string, TPair extends Record<string, PgColumnBuilderBase>>(name: TName, pair: TPair) {
  return pgTable(name, { ...pair, position: integer().notNull().default(0) }, (t) => {
    const [first, second] = Object.keys(pair).map((key) => (t as unknown as Record<string, PgColumn>)[key]);
    return [primaryKey({ columns: [first, second] })];
  });
}

/** The first role of a user (lowest position) is the user's role (spec §6). */
export const userRoles = rankedLink('user_roles', {
  user_id: refersTo(() => users.id, 'cascade'),
  role_id: refersTo(() => roles.id, 'restrict'),
});

export const features = pgTable('features', {
  id: id(),
  name: text().notNull().unique(),
  link: text().notNull(),
  tag: text().notNull(),
});

export const permissions = pgTable(
  'permissions',
  {
    id: id(),
    name: text().notNull().unique(),
    feature_id: refersTo(() => features.id, 'cascade'),
    action: text().$type<Action>().notNull(),
    is_active: isActive(),
    ...timestamps,
  },
  (t) => [
    unique('permissions_feature_action_unique').on(t.feature_id, t.action),
    check('permissions_action_check', sql`${t.action} in ('list', 'add', 'show', 'edit', 'delete', 'status')`),
  ],
);

/** A role's rights ("profils" in the specification). */
export const rolePermissions = pgTable(
  'role_permissions',
  {
    id: id(),
    role_id: refersTo(() => roles.id, 'cascade'),
    permission_id: refersTo(() => permissions.id, 'cascade'),
    is_active: isActive(),
    ...timestamps,
  },
  (t) => [unique('role_permissions_unique').on(t.role_id, t.permission_id)],
);

/** The menu catalogue ("windows"): a tree of entries. */
export const menus = pgTable('menus', {
  id: id(),
  parent_id: integer().references((): AnyPgColumn => menus.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  route: text(),
  title: boolean().notNull().default(false),
  position: integer().notNull().default(0),
});

/** A role's menu: its entries, in position order. */
export const roleWindows = rankedLink('role_windows', {
  role_id: refersTo(() => roles.id, 'cascade'),
  menu_id: refersTo(() => menus.id, 'cascade'),
});
