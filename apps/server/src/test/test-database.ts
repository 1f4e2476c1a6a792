import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { connectPostgres, type Database, drizzleOf } from '../db/client.ts';
import { nameStatements } from '../db/prepared-statements.ts';
import type { TestServer } from './test-server.ts';

let outsideVitest: TestServer | undefined;

/** A script outside vitest (the import bench) that ran global-setup.ts itself names the server it got. */
export function useTestServer(server: TestServer): void {
  outsideVitest = server;
}

/** The run's database server (global-setup.ts): the embedded cluster, or the PostgreSQL of DATABASE_URL. */
export function testServer(): TestServer {
  return outsideVitest ?? inject('testServer');
}

/** The postgres:// address of the run's maintenance database, where scratch databases are created. */
export const testServerUrl = (): string => testServer().url;

export type TestDatabaseContent = 'empty' | 'migrated' | 'seeded';

/**
 * A fresh database for one test file on the run's server, dropped by `close`: empty (nothing migrated), migrated,
 * or migrated with the reference and demo data — the last two copied from the run's templates.
 */
export async function createTestDatabase(content: TestDatabaseContent = 'empty'): Promise<Database> {
  const server = testServer();
  const name = `reformes_test_${randomBytes(6).toString('hex')}`;
  const template = content === 'empty' ? '' : ` template ${server.templates[content]}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${template}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  pool.on('error', () => undefined);
  // As the server's pools do (db/client.ts): the suites run the statements the way production runs them.
  nameStatements(pool);
  return {
    db: drizzleOf(pool),
    pool,
    kind: server.kind,
    url: url.toString(),
    async close() {
      await pool.end();
      const cleaner = new pg.Client({ connectionString: server.url });
      await cleaner.connect();
      await cleaner.query(`drop database if exists ${name} with (force)`);
      await cleaner.end();
    },
  };
}

/** A role that owns its database (the migrations ran as it) but is no superuser, as managed PostgreSQL services give. */
export async function createOwnedDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const suffix = randomBytes(6).toString('hex');
  const [role, name, password] = [`reformes_owner_${suffix}`, `reformes_owned_${suffix}`, `mot-de-passe-${suffix}`];
  const admin = new pg.Client({ connectionString: testServerUrl() });
  await admin.connect();
  try {
    await admin.query(`create role ${role} login nosuperuser nocreatedb nocreaterole password '${password}'`);
    await admin.query(`create database ${name} owner ${role}`);
  } finally {
    await admin.end();
  }
  const url = new URL(testServerUrl());
  url.username = role;
  url.password = password;
  url.pathname = `/${name}`;
  const database = connectPostgres(url.toString(), { max: 2 });
  return {
    database,
    async drop() {
      await database.close();
      const cleaner = new pg.Client({ connectionString: testServerUrl() });
      await cleaner.connect();
      try {
        await cleaner.query(`drop database if exists ${name} with (force)`);
        await cleaner.query(`drop role if exists ${role}`);
      } finally {
        await cleaner.end();
      }
    },
  };
}
