import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import pg from 'pg';
import { connectPostgres, type Database, wrapPool } from '../db/client.ts';
import { PGLITE_EXTENSIONS } from '../db/pglite-options.ts';

/**
 * A fresh, empty database for one test file: an in-memory PGlite reached through
 * pglite-socket and node-postgres (the production path), or, when DATABASE_URL is set,
 * a new database created on that PostgreSQL server and dropped afterwards.
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `reformes_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = connectPostgres(url.toString());
    return {
      ...database,
      url: url.toString(),
      async close() {
        await database.close();
        const cleaner = new pg.Client({ connectionString: serverUrl });
        await cleaner.connect();
        await cleaner.query(`drop database if exists ${name} with (force)`);
        await cleaner.end();
      },
    };
  }
  const pglite = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  const server = new PGLiteSocketServer({ db: pglite, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', max: 1 });
  return wrapPool(
    pool,
    'pglite',
    async () => {
      await pool.end();
      await server.stop();
      await pglite.close();
    },
    async () => Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer()),
  );
}
