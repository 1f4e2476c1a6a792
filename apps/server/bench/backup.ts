/**
 * "Effectuer une sauvegarde" at scale: the backups service's own `create()` (database dump + documents archive) on
 * 100 000 reforms with their children, timed, with the process's memory sampled every 50 ms:
 *
 *   npm run bench:backup                      # the embedded cluster (logical dump), then PostgreSQL when it answers
 *   BENCH_REFORMS=20000 BENCH_ENGINE=embedded|postgres|both npm run bench:backup
 *
 * PostgreSQL's backup is `pg_dump` in a child process: its memory is not the server's, and is not counted here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connectEmbedded, connectPostgres, type Database } from '../src/db/client.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { seedDemoData } from '../src/db/seed/demo.ts';
import { seedReferenceData } from '../src/db/seed/reference.ts';
import { createBackupsService } from '../src/modules/backups/backups.service.ts';
import { openStores } from '../src/storage/stores.ts';
import { createScratchDatabase, dropScratchDatabase } from '../src/test/scratch-database.ts';
import { insertBulkData, type Query } from './bulk-data.ts';

const REFORMS = Number(process.env.BENCH_REFORMS ?? 100_000);
const ENGINE = process.env.BENCH_ENGINE ?? 'both';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MB = 1024 * 1024;

async function fill(database: Database): Promise<void> {
  await runMigrations(database);
  await seedReferenceData(database.db);
  await seedDemoData(database.db);
  const query: Query = async (text) => (await database.pool.query(text)).rows;
  const started = Date.now();
  await insertBulkData(query, REFORMS, () => undefined);
  await database.pool.query('vacuum analyze');
  console.log(`  ${REFORMS} reforms and their children inserted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function measure(label: string, database: Database, dir: string): Promise<void> {
  const storageDir = path.join(dir, 'storage');
  fs.mkdirSync(path.join(storageDir, 'reformes'), { recursive: true });
  // A few documents, so that the archive is not empty; their size is not the point here.
  for (let index = 0; index < 20; index++)
    fs.writeFileSync(path.join(storageDir, 'reformes', `piece-${index}.pdf`), Buffer.alloc(256 * 1024, index));
  const backups = createBackupsService({
    database,
    ...(await openStores({ storageDir, backupDir: path.join(dir, 'backups') })),
    retention: 5,
  });
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 50);
  const started = performance.now();
  const rows = await backups.create();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const sizes = rows
    .map((row) => `${row.name.replace(/^reformes-[0-9-]+-[a-z0-9]+-/, '')} ${(Number(row.size) / MB).toFixed(1)} MB`)
    .join(', ');
  console.log(
    `  ${label}: ${seconds.toFixed(1)} s; server RSS ${(before.rss / MB).toFixed(0)} -> peak ${(peakRss / MB).toFixed(0)} MB ` +
      `(+${((peakRss - before.rss) / MB).toFixed(0)} MB), heap +${((peakHeap - before.heapUsed) / MB).toFixed(0)} MB; files: ${sizes}`,
  );
}

console.log(`node ${process.version}, ${os.availableParallelism()} cpus, BENCH_REFORMS=${REFORMS}`);
/** Fills a fresh database of one engine, opened in a scratch folder, and measures a backup of it; both go afterwards. */
async function benchEngine(
  title: string,
  label: string,
  open: (dir: string) => Promise<{ database: Database; drop?: () => Promise<void> }>,
) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-bench-backup-'));
  const { database, drop } = await open(dir);
  try {
    console.log(title);
    await fill(database);
    await measure(label, database, dir);
  } finally {
    await database.close();
    await drop?.();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (ENGINE === 'embedded' || ENGINE === 'both') {
  await benchEngine('embedded PostgreSQL:', 'backup (logical dump, gzip)', async (dir) => {
    fs.chmodSync(dir, 0o755);
    return { database: await connectEmbedded(path.join(dir, 'postgres'), { max: 3 }) };
  });
}
if (ENGINE === 'postgres' || ENGINE === 'both') {
  await benchEngine('PostgreSQL:', 'backup (pg_dump --format=custom)', async () => {
    const url = await createScratchDatabase(ADMIN_URL, 'reformes_bench_backup');
    return { database: connectPostgres(url, { max: 3 }), drop: () => dropScratchDatabase(ADMIN_URL, url) };
  });
}
