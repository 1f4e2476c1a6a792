import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** One statement on `serverUrl`'s database, on a connection of its own (create or drop database). */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the PostgreSQL server of `serverUrl`, named `{prefix}_{random}`; returns its URL. */
export async function createScratchDatabase(serverUrl: string, prefix: string): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops a database made by `createScratchDatabase`, whoever is still connected to it. */
export async function dropScratchDatabase(serverUrl: string, databaseUrl: string): Promise<void> {
  await adminQuery(serverUrl, `drop database if exists ${new URL(databaseUrl).pathname.slice(1)} with (force)`);
}
