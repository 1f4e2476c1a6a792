import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-database.ts';
import type { Database } from './client.ts';
import { drizzleOf } from './client.ts';
import { nameStatements } from './prepared-statements.ts';

/** The statements this connection has prepared (PostgreSQL's own view of the session). */
async function preparedOn(client: pg.PoolClient): Promise<string[]> {
  const { rows } = await client.query<{ statement: string }>('select statement from pg_prepared_statements order by statement');
  return rows.map((row) => row.statement);
}

describe('named prepared statements (db/prepared-statements.ts)', () => {
  let database: Database;
  let pool: pg.Pool;

  beforeAll(async () => {
    database = await createTestDatabase('empty');
    pool = new pg.Pool({ connectionString: database.url, max: 1 });
    nameStatements(pool);
  });
  afterAll(async () => {
    await pool.end();
    await database.close();
  });

  it('prepares a parameterised statement once per connection and reuses it', async () => {
    const db = drizzleOf(pool);
    for (const value of [1, 2, 3]) {
      const { rows } = await db.execute<{ doubled: number }>(sql`select ${value}::int * 2 as doubled`);
      expect(rows).toEqual([{ doubled: value * 2 }]);
    }
    const client = await pool.connect();
    try {
      expect(await preparedOn(client)).toEqual(['select $1::int * 2 as doubled']);
    } finally {
      client.release();
    }
  });

  it('leaves statements without parameters unnamed (they may hold several statements)', async () => {
    const client = await pool.connect();
    try {
      await client.query({ text: 'select 1; select 2' });
      expect(await preparedOn(client)).not.toContain('select 1; select 2');
    } finally {
      client.release();
    }
  });

  it('recovers from a statement that fails to parse, then names the next ones', async () => {
    const db = drizzleOf(pool);
    await expect(db.execute(sql`select ${1}::int frm nowhere`)).rejects.toThrow();
    const { rows } = await db.execute<{ plus: number }>(sql`select ${40}::int + 2 as plus`);
    expect(rows).toEqual([{ plus: 42 }]);
  });

  it('names at most `max` texts: later ones still run, unnamed', async () => {
    const capped = new pg.Pool({ connectionString: database.url, max: 1 });
    nameStatements(capped, 3);
    try {
      const db = drizzleOf(capped);
      for (const column of ['a', 'b', 'c', 'd', 'e']) {
        const { rows } = await db.execute<Record<string, number>>(sql`select ${7}::int as ${sql.identifier(column)}`);
        expect(rows).toEqual([{ [column]: 7 }]);
      }
      const client = await capped.connect();
      try {
        expect(await preparedOn(client)).toEqual(['select $1::int as "a"', 'select $1::int as "b"', 'select $1::int as "c"']);
      } finally {
        client.release();
      }
    } finally {
      await capped.end();
    }
  });
});
