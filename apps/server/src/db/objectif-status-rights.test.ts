import fs from 'node:fs';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database.ts';
import type { Database } from './client.ts';
import { MIGRATIONS_FOLDER, runMigrations } from './migrate.ts';
import { permissions, rolePermissions, roles } from './schema/index.ts';
import { seedReferenceData } from './seed/reference.ts';

const STATUS_RIGHTS = ['objectifs.status', 'resultats.status'];

/** The statements of migration 0004, to run them again on a database that predates them. */
function migration0004(): string[] {
  const text = fs.readFileSync(path.join(MIGRATIONS_FOLDER, '0004_objectif_status_rights.sql'), 'utf8');
  return text.split('--> statement-breakpoint').map((statement) => statement.trim());
}

describe('migration 0004: the status right on objectives and results', () => {
  let database: Database;
  let db: Database['db'];

  /** Which roles hold a right, by name, and whether each grant is active. */
  async function holders(name: string) {
    const rows = await db
      .select({ role: roles.name, isActive: rolePermissions.is_active })
      .from(rolePermissions)
      .innerJoin(roles, eq(roles.id, rolePermissions.role_id))
      .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
      .where(eq(permissions.name, name));
    return Object.fromEntries(rows.map((row) => [row.role, row.isActive]));
  }

  async function runMigration() {
    for (const statement of migration0004()) await db.execute(sql.raw(statement));
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    await runMigrations(database);
    await seedReferenceData(database.db);
    db = database.db;
  });
  afterAll(() => database.close());

  it('is registered in the journal, in order, like every migration file', () => {
    const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
      entries: Array<{ idx: number; tag: string; when: number }>;
    };
    const files = fs
      .readdirSync(MIGRATIONS_FOLDER)
      .filter((name) => name.endsWith('.sql'))
      .map((name) => name.replace(/\.sql$/, ''));
    expect(journal.entries.map((entry) => entry.tag)).toEqual(files.sort());
    expect(journal.entries.map((entry) => entry.idx)).toEqual(files.map((_, index) => index));
    for (const [index, entry] of journal.entries.entries()) {
      if (index > 0) expect(entry.when).toBeGreaterThan(journal.entries[index - 1].when);
    }
    expect(journal.entries[4]).toMatchObject({ idx: 4, tag: '0004_objectif_status_rights' });
  });

  it('leaves a fresh database as the seed made it: saisie central and saisie hold both rights', async () => {
    for (const name of STATUS_RIGHTS) expect(await holders(name)).toEqual({ 'saisie central': true, saisie: true });
  });

  it('grants them on an older database to every role holding the edit right, as active as that right, once', async () => {
    // A database seeded before these rights existed, where an administrator made a role of their own
    // managing objectives, and suspended saisie's right to edit results.
    await db.delete(permissions).where(inArray(permissions.name, STATUS_RIGHTS));
    const [custom] = await db.insert(roles).values({ name: 'Gestion des objectifs' }).returning({ id: roles.id });
    const [objectifsEdit] = await db.select({ id: permissions.id }).from(permissions).where(eq(permissions.name, 'objectifs.edit'));
    await db.insert(rolePermissions).values({ role_id: custom.id, permission_id: objectifsEdit.id });
    const [saisie] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'saisie'));
    const [resultatsEdit] = await db.select({ id: permissions.id }).from(permissions).where(eq(permissions.name, 'resultats.edit'));
    await db
      .update(rolePermissions)
      .set({ is_active: false })
      .where(and(eq(rolePermissions.role_id, saisie.id), eq(rolePermissions.permission_id, resultatsEdit.id)));

    await runMigration();
    await runMigration();

    expect(await holders('objectifs.status')).toEqual({ 'saisie central': true, saisie: true, 'Gestion des objectifs': true });
    expect(await holders('resultats.status')).toEqual({ 'saisie central': true, saisie: false });
    const created = await db
      .select({ name: permissions.name, action: permissions.action })
      .from(permissions)
      .where(inArray(permissions.name, STATUS_RIGHTS));
    expect(created.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'objectifs.status', action: 'status' },
      { name: 'resultats.status', action: 'status' },
    ]);
  });
});
