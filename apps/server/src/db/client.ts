import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { EMBEDDED_DATABASE, type EmbeddedCluster, ensureAppDatabase, startEmbeddedCluster } from './embedded-cluster.ts';
import { nameStatements } from './prepared-statements.ts';
import * as schema from './schema/index.ts';

export type Db = NodePgDatabase<typeof schema>;
/** The executor inside `db.transaction(...)`. */
export type Transaction = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DatabaseKind = 'embedded' | 'postgresql';

export interface Database {
  db: Db;
  pool: pg.Pool;
  kind: DatabaseKind;
  /** The connection string (for the embedded cluster: its Unix socket folder in `?host=`). */
  url: string;
  close(): Promise<void>;
}

// Dates stay 'yyyy-mm-dd' strings and numerics stay exact: no timezone or float surprises.
pg.types.setTypeParser(pg.types.builtins.DATE, (value) => value);

/** Drizzle over a pool, or over one client checked out of it (work done under a session-level lock). */
export function drizzleOf(client: pg.Pool | pg.PoolClient): Db {
  return drizzle({ client, schema, casing: 'snake_case' });
}

/** `work` on one client of the pool, released whatever happens (a snapshot, a transaction, a session setting). */
export async function withClient<T>(database: Pick<Database, 'pool'>, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await database.pool.connect();
  try {
    return await work(client);
  } finally {
    client.release();
  }
}

export function wrapPool(pool: pg.Pool, kind: DatabaseKind, url: string, close: () => Promise<void>): Database {
  nameStatements(pool);
  return { db: drizzleOf(pool), pool, kind, url, close };
}

/**
 * Runs `work` on one client holding a PostgreSQL advisory lock, so that several instances starting together
 * take turns (migrations, seeding). The work uses that same client: it never needs a second connection, so a
 * pool of one cannot deadlock.
 */
export async function withStartupLock<T>(database: Database, key: number, work: (db: Db) => Promise<T>): Promise<T> {
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
  return wrapPool(pool, 'postgresql', url, () => pool.end());
}

export interface EmbeddedOptions {
  /** The app's pool (DATABASE_POOL_MAX); the cluster allows a few more connections for maintenance. */
  max?: number;
  /** PostgreSQL's own log lines (warnings, errors, start and stop). */
  onLog?: (line: string) => void;
}

/** Connections beyond the app's pool: a restore, a migration command, an operator's psql. */
const SPARE_CONNECTIONS = 5;

/**
 * Starts the embedded PostgreSQL cluster in `dataDir` (embedded-cluster.ts), creating it on first use, and connects
 * to the app's database in it. `close` ends the pool, then stops the cluster (fast shutdown) and frees the lock.
 */
export async function connectEmbedded(dataDir: string, { max = 10, onLog }: EmbeddedOptions = {}): Promise<Database> {
  const lock = await acquireDataDirLock(dataDir);
  let cluster: EmbeddedCluster;
  let login: { user: string; password: string };
  try {
    cluster = await startEmbeddedCluster(dataDir, {
      maxConnections: max + SPARE_CONNECTIONS,
      onLog,
      onSpawn: (pid) => lock.recordChild(pid),
    });
    // The app queries as its database's owner, never as the superuser (embedded-cluster.ts, APP_ROLE).
    login = await ensureAppDatabase(cluster.connection).catch(async (error) => {
      await cluster.stop();
      throw error;
    });
  } catch (error) {
    lock.release();
    throw error;
  }
  // Idle backends close after 2 s (node-postgres' default is 10 s): each holds a few MB of the laptop's memory,
  // and opening one on a Unix socket costs a few milliseconds.
  const pool = new pg.Pool({ ...cluster.connection, ...login, database: EMBEDDED_DATABASE, max, idleTimeoutMillis: 2_000 });
  pool.on('error', () => undefined);
  return wrapPool(pool, 'embedded', cluster.urlOf(EMBEDDED_DATABASE, login), async () => {
    await pool.end();
    await cluster.stop();
    lock.release();
  });
}
