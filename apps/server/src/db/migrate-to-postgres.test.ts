import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createScratchDatabase, dropScratchDatabase } from '../test/scratch-database.ts';
import { createOwnedDatabase, testServerUrl } from '../test/test-database.ts';
import { connectEmbedded, connectPostgres } from './client.ts';
import { CopyMismatchError, copyDatabase } from './copy-database.ts';
import { runMigrations } from './migrate.ts';
import { MigrateRefusal, migrateToPostgres } from './migrate-to-postgres.ts';
import { DEMO_PASSWORD, seedDemoData } from './seed/demo.ts';
import { seedReferenceData } from './seed/reference.ts';

/** The target: a new database on the run's server (the PostgreSQL of DATABASE_URL, or the test cluster). */
async function createTarget(): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = await createScratchDatabase(testServerUrl(), 'reformes_migrate');
  return { url, drop: () => dropScratchDatabase(testServerUrl(), url) };
}

async function query<Row extends pg.QueryResultRow>(url: string, sql: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<Row>(sql)).rows;
  } finally {
    await client.end();
  }
}

const COUNTS = `select (select count(*)::int from users) as users, (select count(*)::int from reformes) as reformes,
  (select count(*)::int from suivi_results) as suivis, (select count(*)::int from reforme_progress) as progress,
  (select coalesce(sum(total), 0)::int from reforme_counts) as counted`;

describe('npm run migrate-to-postgres', { timeout: 180_000 }, () => {
  let dir: string;
  let embeddedDir: string;
  let storageDir: string;
  let target: { url: string; drop: () => Promise<void> };
  let sourceCounts: Record<string, number>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-migrate-'));
    embeddedDir = path.join(dir, 'postgres');
    storageDir = path.join(dir, 'storage');
    const source = await connectEmbedded(embeddedDir, { onLog: () => undefined });
    await runMigrations(source);
    await seedReferenceData(source.db);
    await seedDemoData(source.db);
    sourceCounts = (await source.pool.query(COUNTS)).rows[0];
    await source.close();
    fs.mkdirSync(path.join(storageDir, 'reformes', '3'), { recursive: true });
    fs.writeFileSync(path.join(storageDir, 'reformes', '3', 'note.pdf'), '%PDF-1.4 note de cadrage');
    target = await createTarget();
    // An embedded database created and seeded: slow on a loaded CI machine.
  }, 180_000);

  afterAll(async () => {
    await target?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies every table and the documents, checked, into a database the server then runs on', async () => {
    const logged: string[] = [];
    const toStorage = path.join(dir, 'storage-pg');
    const report = await migrateToPostgres({ embeddedDir, storageDir, to: target.url, toStorage, log: (line) => logged.push(line) });

    expect(report.tables.find((table) => table.table === 'reformes')?.rows).toBe(sourceCounts.reformes);
    expect(report.documents).toBe(1);
    expect(fs.readFileSync(path.join(toStorage, 'reformes', '3', 'note.pdf'), 'utf8')).toBe('%PDF-1.4 note de cadrage');
    expect(logged).toContain(`reformes : ${sourceCounts.reformes} ligne(s) copiée(s) et vérifiée(s)`);
    // Rows, counters and progress rows as they were; the generated search texts computed again.
    expect((await query(target.url, COUNTS))[0]).toEqual(sourceCounts);
    expect((await query<{ n: number }>(target.url, 'select count(*)::int as n from reformes where search_text is null'))[0].n).toBe(0);

    // The server on PostgreSQL: the demo accounts sign in, the reforms are there, new ids follow the copied ones.
    const database = connectPostgres(target.url, { max: 2 });
    const app = await buildApp({
      config: loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dir,
        STORAGE_DIR: toStorage,
        LOG_LEVEL: 'silent',
        WEB_DIST: path.join(dir, 'no-web'),
      }),
      database,
      logger: false,
    });
    try {
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/api/login',
        payload: { email: 'central@reformes.test', password: DEMO_PASSWORD, device: 'web' },
      });
      expect(login.statusCode).toBe(200);
      const headers = { authorization: `Bearer ${login.json().data.access_token}` };
      const list = await app.inject({ method: 'GET', url: '/api/v1/reformes?per_page=5&page=1', headers });
      expect(list.json().data.total).toBe(sourceCounts.reformes);
      const [{ max }] = await query<{ max: number }>(target.url, 'select max(id)::int as max from natures');
      const created = await app.inject({
        method: 'POST',
        url: '/api/v1/natures',
        headers,
        payload: { libnature: 'Nature après migration' },
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.id).toBe(max + 1);
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('refuses a target that holds data without --force, and replaces it with --force', async () => {
    const before = (await query(target.url, COUNTS))[0];
    await expect(migrateToPostgres({ embeddedDir, storageDir, to: target.url })).rejects.toThrow(
      new MigrateRefusal('La base PostgreSQL contient déjà des données : ajoutez --force pour les remplacer.'),
    );
    expect((await query(target.url, COUNTS))[0]).toEqual(before);

    await migrateToPostgres({ embeddedDir, storageDir, to: target.url, force: true });
    expect((await query(target.url, COUNTS))[0]).toEqual(sourceCounts);
    expect(await query(target.url, "select 1 from natures where libnature = 'Nature après migration'")).toEqual([]);
  });

  it('needs no superuser: a role that only owns the target database receives the copy, with --force too', async () => {
    const owned = await createOwnedDatabase();
    try {
      const [{ rolsuper }] = await query<{ rolsuper: boolean }>(
        owned.database.url,
        'select rolsuper from pg_roles where rolname = current_user',
      );
      expect(rolsuper).toBe(false);
      await migrateToPostgres({ embeddedDir, storageDir, to: owned.database.url });
      expect((await query(owned.database.url, COUNTS))[0]).toEqual(sourceCounts);
      await migrateToPostgres({ embeddedDir, storageDir, to: owned.database.url, force: true });
      expect((await query(owned.database.url, COUNTS))[0]).toEqual(sourceCounts);
    } finally {
      await owned.drop();
    }
  });

  it('refuses what it cannot do, in French, before touching anything', async () => {
    await expect(migrateToPostgres({ embeddedDir, storageDir, to: 'mysql://x' })).rejects.toThrow('--to attend une adresse postgres://');
    await expect(migrateToPostgres({ embeddedDir: path.join(dir, 'absente'), storageDir, to: target.url })).rejects.toThrow(
      `Aucune base embarquée dans ${path.join(dir, 'absente')}.`,
    );
    await expect(
      migrateToPostgres({ embeddedDir, storageDir, to: target.url, toStorage: path.join(dir, 'storage-pg'), force: false }),
    ).rejects.toThrow("n'est pas vide : ajoutez --force pour l'écraser.");
    await expect(migrateToPostgres({ embeddedDir, storageDir, to: 'postgres://postgres@127.0.0.1:1/none' })).rejects.toThrow(
      'La base PostgreSQL ne répond pas',
    );
  });
});

describe('copyDatabase', () => {
  it('keeps nothing when a table does not read back as it was written (here a decimal rounded by the target)', async () => {
    const [source, target] = [await createTarget(), await createTarget()];
    const [from, into] = [new pg.Client({ connectionString: source.url }), new pg.Client({ connectionString: target.url })];
    await from.connect();
    await into.connect();
    try {
      await from.query('create table mesures (id integer primary key, valeur numeric); insert into mesures values (1, 1.5), (2, 2)');
      await into.query('create table mesures (id integer primary key, valeur numeric(10, 0)); insert into mesures values (9, 9)');
      const copy = copyDatabase(from, into);
      await expect(copy).rejects.toBeInstanceOf(CopyMismatchError);
      await expect(copy).rejects.toThrow("La copie ne correspond pas à la source (mesures) : rien n'a été enregistré dans la base cible.");
      expect((await into.query('select id, valeur from mesures')).rows).toEqual([{ id: 9, valeur: '9' }]);
    } finally {
      await from.end();
      await into.end();
      await source.drop();
      await target.drop();
    }
  });
});
