import { fork } from 'node:child_process';
import fs from 'node:fs';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { acquireDataDirLock } from './data-dir-lock.ts';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
export type DatabaseKind = 'pglite' | 'postgresql';

export interface Database {
  db: Db;
  pool: pg.Pool;
  kind: DatabaseKind;
  /** PGlite only: a gzipped tarball of the data directory, restorable with `loadDataDir`. */
  snapshot?: () => Promise<Buffer>;
  /** PostgreSQL only: the connection string, for pg_dump. */
  url?: string;
  close(): Promise<void>;
}

// Dates stay 'yyyy-mm-dd' strings and numerics stay exact: no timezone or float surprises.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

export function wrapPool(pool: pg.Pool, kind: DatabaseKind, close: () => Promise<void>, snapshot?: () => Promise<Buffer>): Database {
  return { db: drizzle({ client: pool, schema, casing: 'snake_case' }), pool, kind, close, snapshot };
}

/** `max`: DATABASE_POOL_MAX (config.ts); see docs/decisions.md for the sizing. */
export function connectPostgres(url: string, { max = 10 }: { max?: number } = {}): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client cut by the server (restart, pg_terminate_backend, drop database with force) is dropped
  // by the pool and replaced on demand; without a listener the 'error' event would crash the process.
  pool.on('error', () => undefined);
  return { ...wrapPool(pool, 'postgresql', () => pool.end()), url };
}

/**
 * The PGlite child script beside this module: the compiled `.js` when the server runs compiled
 * (apps/server/dist, `npm start`), the `.ts` source through tsx when it runs from its sources (tests,
 * bench). Never inherit the parent's execArgv: the compiled child must not load a TypeScript loader.
 */
function pgliteChild(): { script: URL; execArgv: string[] } {
  const compiled = !import.meta.url.endsWith('.ts');
  return compiled
    ? { script: new URL('./pglite-process.js', import.meta.url), execArgv: [] }
    : { script: new URL('./pglite-process.ts', import.meta.url), execArgv: ['--import', 'tsx'] };
}

/** Starts the embedded PGlite in a child process (see pglite-process.ts) and connects to it. */
export async function connectEmbedded(dataDir: string): Promise<Database> {
  const lock = await acquireDataDirLock(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const { script, execArgv } = pgliteChild();
  const child = fork(script, [], {
    env: { ...process.env, PGLITE_DATA_DIR: dataDir },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  if (child.pid) lock.recordChild(child.pid);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      child.once('message', (message: { type?: string; port?: number }) => {
        if (message.type === 'ready' && message.port) resolve(message.port);
      });
      child.once('exit', (code) => reject(new Error(`La base embarquée n'a pas pu démarrer (code ${code}).`)));
    });
  } catch (error) {
    lock.release();
    throw error;
  }
  // PGlite is single-connection: one pooled client keeps transactions from interleaving.
  const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 1 });
  let requests = 0;
  const snapshot = () =>
    new Promise<Buffer>((resolve, reject) => {
      const id = ++requests;
      const onMessage = (message: { type?: string; id?: number; data?: string; error?: string }) => {
        if (message.type !== 'snapshot' || message.id !== id) return;
        child.off('message', onMessage);
        if (message.error || !message.data) reject(new Error(message.error ?? 'Instantané vide'));
        else resolve(Buffer.from(message.data, 'base64'));
      };
      child.on('message', onMessage);
      child.send({ type: 'snapshot', id });
    });
  return wrapPool(
    pool,
    'pglite',
    async () => {
      await pool.end();
      if (child.connected) child.send('shutdown');
      const timeout = setTimeout(() => child.kill('SIGKILL'), 8_000);
      await exited;
      clearTimeout(timeout);
      lock.release();
    },
    snapshot,
  );
}
