/**
 * Once per `vitest run` of the server project: the database server every test file creates its own database on.
 * With DATABASE_URL, that PostgreSQL; otherwise an embedded cluster (the default mode's engine) in a temporary
 * folder, stopped and removed afterwards. Two templates are prepared there, so that a file's fresh database is a
 * file copy (`create database … template …`) rather than nine migrations and a demo seed each time.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connectPostgres } from '../db/client.ts';
import { startEmbeddedCluster } from '../db/embedded-cluster.ts';
import { runMigrations } from '../db/migrate.ts';
import { seedDemoData } from '../db/seed/demo.ts';
import { seedReferenceData } from '../db/seed/reference.ts';
import { adminQuery } from './scratch-database.ts';
import { TEMPLATES, type TestServer } from './test-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testServer: TestServer;
  }
}

const withDatabase = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

export default async function setup(project: TestProject) {
  let stop = async () => undefined;
  let serverUrl = process.env.DATABASE_URL;
  const kind = serverUrl ? 'postgresql' : 'embedded';
  if (!serverUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-vitest-'));
    fs.chmodSync(dir, 0o755);
    // Quiet: PostgreSQL notes every database dropped with (force) and every connection a test cuts.
    const cluster = await startEmbeddedCluster(path.join(dir, 'postgres'), { maxConnections: 200, onLog: () => undefined });
    serverUrl = cluster.urlOf('postgres');
    stop = async () => {
      await cluster.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const suffix = `${process.pid}_${Date.now().toString(36)}`;
  const templates = { migrated: `${TEMPLATES.migrated}_${suffix}`, seeded: `${TEMPLATES.seeded}_${suffix}` };
  for (const [name, seeded] of [
    [templates.migrated, false],
    [templates.seeded, true],
  ] as const) {
    await adminQuery(serverUrl, `create database ${name}`);
    const database = connectPostgres(withDatabase(serverUrl, name), { max: 1 });
    try {
      await runMigrations(database);
      if (seeded) {
        await seedReferenceData(database.db);
        await seedDemoData(database.db);
      }
    } finally {
      await database.close();
    }
  }
  project.provide('testServer', { url: serverUrl, kind, templates });
  return async () => {
    for (const name of Object.values(templates))
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`).catch(() => undefined);
    await stop();
  };
}
