import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.ts';

const reforme = {
  libref: 'Guichet Zéphyrine des associations',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Simplifier',
  popul_cible: 'Associations',
  couverture_id: 1,
  struct_impl: 'Directions',
  date_debut: '2026-01-01',
  date_fin: '2027-12-31',
};

/**
 * Issue 31, item 4: two instances on one database share everything through it. The search total is counted once per
 * version of the reforms (db/lists, a database sequence every write moves), so instance B's total reflects a
 * reform created on A at once; rights are read per request, so a right taken on A is gone on B at the next request.
 */
describe('two instances on one database', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    a = await createTestApp();
    b = await buildApp({ config: a.config, database: a.database, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('a search total read on B reflects a reform created on A at once', async () => {
    const session = await a.login('saisie@reformes.test');
    const search = async () =>
      (
        await b.inject({
          method: 'POST',
          url: '/api/v1/reformes-search?per_page=5&page=1',
          headers: bearer(session.access_token),
          payload: { search: 'zephyrine' },
        })
      ).json().data.total as number;
    const before = await search();
    expect(await search()).toBe(before);
    const created = await a.app.inject({
      method: 'POST',
      url: '/api/v1/reformes',
      headers: bearer(session.access_token),
      payload: reforme,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await search()).toBe(before + 1);
  });

  it('a right taken from a role on A is refused on B at the next request', async () => {
    const session = await a.login('admin@reformes.test');
    const audit = () => b.inject({ method: 'GET', url: '/api/v1/audit-logs?per_page=1&page=1', headers: bearer(session.access_token) });
    expect((await audit()).statusCode).toBe(200);
    await a.database.pool.query(
      `update role_permissions set is_active = false
       where permission_id = (select id from permissions where name = 'audit.list') and role_id = (select id from roles where name = 'admin')`,
    );
    try {
      expect((await audit()).statusCode).toBe(403);
    } finally {
      await a.database.pool.query(
        `update role_permissions set is_active = true
         where permission_id = (select id from permissions where name = 'audit.list') and role_id = (select id from roles where name = 'admin')`,
      );
    }
  });
});
