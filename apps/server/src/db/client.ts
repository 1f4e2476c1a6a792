import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
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

/** Drizzle over a pool, or over one client checked out of it (work done under a session-level lock). */
export function drizzleOf(client: pg.Pool | pg.PoolClient): Db {
  return drizzle({ client, schema, casing: 'snake_case' });
}

export function wrapPool(pool: pg.Pool, kind: DatabaseKind, close: () => Promise<void>, snapshot?: () => Promise<Buffer>): Database {
  return { db: drizzleOf(pool), pool, kind, close, snapshot };
}

/**
 * Runs `work` on one client holding a PostgreSQL advisory lock, so that several instances starting together
 * take turns (migrations, seeding). The work uses that same client: it never needs a second connection, so a
 * pool of one cannot deadlock. The embedded database has one instance and one connection: no lock.
 */
export async function withStartupLock<T>(database: Database, key: number, work: (db: Db) => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return work(database.db);
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [key]);
    return await work(drizzleOf(client));
  } finally {
    await client.query('select pg_advisory_unlock($1)', [key]).catch(() => undefined);
    client.release();
  }
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
 * The child's JavaScript does little (pglite-socket's buffers): a 1 MB young generation instead of up to
 * 3 x 16 MB, and one V8 helper thread instead of four (each kept its own malloc arena, tens of MB, mostly
 * from compiling PGlite's WebAssembly). See docs/decisions.md, "Embedded database memory".
 */
const PGLITE_CHILD_V8_FLAGS = ['--max-semi-space-size=1', '--v8-pool-size=1'];

/**
 * Forks the PGlite child (pglite-process.ts): the compiled `.js` beside this module when the server runs
 * compiled (apps/server/dist, `npm start`), the `.ts` source through tsx when it runs from its sources
 * (tests, bench). It never inherits the parent's execArgv: the compiled child loads no TypeScript loader.
 */
function forkPglite(dataDir: string, mode: 'serve' | 'initdb'): ChildProcess {
  const compiled = !import.meta.url.endsWith('.ts');
  const script = new URL(compiled ? './pglite-process.js' : './pglite-process.ts', import.meta.url);
  const execArgv = [...PGLITE_CHILD_V8_FLAGS, ...(compiled ? [] : ['--import', 'tsx'])];
  return fork(script, [], {
    env: { ...process.env, PGLITE_DATA_DIR: dataDir, PGLITE_MODE: mode },
    execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** Starts the embedded PGlite in a child process (see pglite-process.ts) and connects to it. */
export async function connectEmbedded(dataDir: string): Promise<Database> {
  const lock = await acquireDataDirLock(dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  let child: ChildProcess;
  let exited: Promise<void>;
  let port: number;
  try {
    if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
      // A new database: initdb runs in a second PGlite instance with its own WebAssembly heap (and a copy of
      // it), hundreds of megabytes that the serving process would keep. A throwaway process does it instead.
      const initdb = forkPglite(dataDir, 'initdb');
      if (initdb.pid) lock.recordChild(initdb.pid);
      const code = await new Promise<number | null>((resolve) => initdb.once('exit', (exitCode) => resolve(exitCode)));
      if (code !== 0) throw new Error(`La base embarquée n'a pas pu être créée (code ${code}).`);
    }
    child = forkPglite(dataDir, 'serve');
    if (child.pid) lock.recordChild(child.pid);
    exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
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
  const snapshot = async () => {
    const id = ++requests;
    // Beside the data directory (same disk), never inside it.
    const file = path.join(path.dirname(dataDir), `.snapshot-${process.pid}-${id}.tar.gz`);
    try {
      await new Promise<void>((resolve, reject) => {
        const onMessage = (message: { type?: string; id?: number; error?: string }) => {
          if (message.type !== 'snapshot' || message.id !== id) return;
          child.off('message', onMessage);
          if (message.error) reject(new Error(message.error));
          else resolve();
        };
        child.on('message', onMessage);
        child.send({ type: 'snapshot', id, file });
      });
      const data = await fs.promises.readFile(file);
      if (data.length === 0) throw new Error('Instantané vide');
      return data;
    } finally {
      await fs.promises.rm(file, { force: true });
    }
  };
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
