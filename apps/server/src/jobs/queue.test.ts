import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { removeRefusedJobs } from './queue.ts';

/** Issue 40, item 3: a PostgreSQL backup (pg_restore, not checked beforehand) keeps no job its kind refuses. */
describe('jobs restored from a pg_dump backup', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase('migrated');
  });
  afterAll(() => database.close());

  it('removes the rows their kind refuses and names them; the others stay', async () => {
    const insert = (kind: string, payload: unknown, done = false) =>
      database.pool.query(
        `insert into jobs (kind, payload, max_attempts, done_at) values ($1, $2::jsonb, 50, case when $3 then now() end) returning id::int`,
        [kind, JSON.stringify(payload), done],
      );
    const forged = (await insert('mail', { to: 'a@reformes.test', subject: 's', text: 't', attachments: [{ path: '/etc/passwd' }] }))
      .rows[0].id;
    const unknown = (await insert('commande', {})).rows[0].id;
    await insert('mail', { to: 'a@reformes.test', subject: 's', text: 't' });
    await insert('mail', { to: 'a@reformes.test', subject: 's' }, true);
    const client = await database.pool.connect();
    try {
      expect(await removeRefusedJobs(client)).toEqual([`n° ${forged}, mail : attachments`, `n° ${unknown}, commande : type inconnu`]);
    } finally {
      client.release();
    }
    const { rows } = await database.pool.query('select id::int from jobs order by id');
    expect(rows.map((row) => row.id)).not.toContain(forged);
    expect(rows).toHaveLength(2);
  });
});
