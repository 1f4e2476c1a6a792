/** Filling a database for the bench: the embedded cluster in a temporary folder, or a scratch database on PostgreSQL. */
import path from 'node:path';
import pg from 'pg';
import { connectEmbedded, connectPostgres } from '../src/db/client.ts';
import { type BenchParameters, type BulkCounts, benchParameters, insertBulkData, type Query } from './bulk-data.ts';
import { ADMIN_URL, cleanups, log, REFORMS, seconds } from './settings.ts';

// ---------------------------------------------------------------------------------------------------------
// Data: the server migrates and seeds the demo data on its first start; the bulk rows go in directly.

/**
 * The server is stopped: the bench starts the cluster in DATA_DIR/postgres itself (taking the data-directory lock),
 * the way the server does.
 */
export async function fillEmbedded(dataDir: string): Promise<{ counts: BulkCounts; parameters: BenchParameters; version: string }> {
  const database = await connectEmbedded(path.join(dataDir, 'postgres'), {
    max: 1,
    // Problems only: not the checkpoint hints a bulk load provokes, nor the autovacuum runs `vacuum` cancels.
    onLog: (line) => {
      if (/ (WARNING|ERROR|FATAL|PANIC): /.test(line) && !line.includes('canceling autovacuum task')) console.error(`  [postgres] ${line}`);
    },
  });
  try {
    const query: Query = async (text) => (await database.pool.query(text)).rows;
    const [{ server_version: version }] = (await query('show server_version')) as Array<{ server_version: string }>;
    const counts = await insertBulkData(query, REFORMS, log);
    let t0 = Date.now();
    await query('vacuum analyze');
    log(`  vacuum analyze ${seconds(t0)}`);
    const parameters = await benchParameters(query);
    t0 = Date.now();
    await query('checkpoint');
    log(`  checkpoint ${seconds(t0)}`);
    return { counts, parameters, version };
  } finally {
    await database.close();
  }
}

export async function fillPostgres(url: string): Promise<{ counts: BulkCounts; parameters: BenchParameters; version?: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('select count(*) from users');
    if (Number(rows[0].count) === 0) {
      // This server does not create the demo accounts on PostgreSQL: the project's own seed does it here.
      const t0 = Date.now();
      const { seedDemoData } = await import('../src/db/seed/demo.ts');
      const database = connectPostgres(url);
      try {
        await seedDemoData(database.db);
      } finally {
        await database.close();
      }
      log(`  demo data seeded by the bench (seedDemoData) ${seconds(t0)}`);
    }
    const query: Query = async (text) => (await client.query(text)).rows;
    const counts = await insertBulkData(query, REFORMS, log);
    const t0 = Date.now();
    // VACUUM too: on PostgreSQL autovacuum would otherwise start on these inserts in the middle of the measures.
    await client.query('vacuum analyze');
    log(`  vacuum analyze ${seconds(t0)}`);
    return { counts, parameters: await benchParameters(query) };
  } finally {
    await client.end();
  }
}

/** The server's version, or why it does not answer (three tries, two seconds apart). */
export async function postgresAnswers(): Promise<{ version?: string; error?: string }> {
  let error = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 2_000));
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
    try {
      await client.connect();
      const { rows } = await client.query<{ server_version: string }>('show server_version');
      return { version: rows[0].server_version };
    } catch (caught) {
      error = (caught as Error).message;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return { error };
}

export async function createScratchDatabase(): Promise<string> {
  const name = `reformes_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
    log(`scratch database ${name} dropped`);
  });
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
