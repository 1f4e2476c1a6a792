import fs from 'node:fs';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { MIGRATIONS_FOLDER, runMigrations } from '../../db/migrate.ts';
import { features, menus, permissions, rolePermissions, roles } from '../../db/schema/index.ts';
import { seedReferenceData } from '../../db/seed/reference.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { createAccessService } from '../access/access.service.ts';

/** The statements of migration 0013, the right of "Courriels et tâches" and its menu entry. */
function grantStatements(): string[] {
  const text = fs.readFileSync(path.join(MIGRATIONS_FOLDER, '0013_jobs_right.sql'), 'utf8');
  return text
    .split('--> statement-breakpoint')
    .map((statement) => statement.trim())
    .filter((statement) => statement.includes('INSERT INTO'));
}

describe('migration 0013: the right of failed mails and jobs, and its menu entry', () => {
  let database: Database;
  let db: Database['db'];

  const holders = async () =>
    (
      await db
        .select({ role: roles.name, permission: permissions.name, isActive: rolePermissions.is_active })
        .from(rolePermissions)
        .innerJoin(roles, eq(roles.id, rolePermissions.role_id))
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
        .where(inArray(permissions.name, ['jobs.list', 'jobs.edit']))
        .orderBy(permissions.name)
    ).map((row) => [row.role, row.permission, row.isActive]);
  /** Admin's "Habilitations" entries, as the roles screen shows them. */
  const adminWindows = async () => {
    const [admin] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'admin'));
    const tree = await createAccessService(db).windowsOf(admin.id);
    return tree.find((node) => node.name === 'Habilitations')?.children.map((node) => `${node.name} ${node.route}`);
  };
  const expectedWindows = [
    'Rôles /admin/roles',
    'Permissions /admin/permissions',
    'Rôles & permissions /admin/profils',
    "Journal d'audit /admin/audit",
    'Courriels et tâches /admin/jobs',
    'Rappels /admin/reminders',
  ];

  beforeAll(async () => {
    database = await createTestDatabase();
    await runMigrations(database);
    await seedReferenceData(database.db);
    db = database.db;
  });
  afterAll(() => database.close());

  const granted = [
    ['admin', 'jobs.edit', true],
    ['admin', 'jobs.list', true],
  ];

  it('leaves a fresh database to the seed: admin alone holds jobs.list and jobs.edit, with the menu entry', async () => {
    expect(await holders()).toEqual(granted);
    expect(await adminWindows()).toEqual(expectedWindows);
  });

  it('adds the feature, the rights for admin and the entry to an older database, once', async () => {
    await db.delete(features).where(eq(features.name, 'jobs'));
    await db.delete(menus).where(eq(menus.route, '/admin/jobs'));
    expect(await holders()).toEqual([]);

    for (let run = 0; run < 2; run++) for (const statement of grantStatements()) await db.execute(sql.raw(statement));

    expect(await holders()).toEqual(granted);
    expect(await db.select({ tag: features.tag }).from(features).where(eq(features.name, 'jobs'))).toEqual([
      { tag: 'Courriels et tâches' },
    ]);
    // Added back last of the group, after entries of later migrations (Rappels).
    expect((await adminWindows())?.sort()).toEqual([...expectedWindows].sort());
    expect(await db.select({ id: menus.id }).from(menus).where(eq(menus.route, '/admin/jobs'))).toHaveLength(1);
  });
});
