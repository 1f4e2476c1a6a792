import { count, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectifs, reformeFiles } from '../../db/schema/index.ts';
import { bearer, type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * Issue 29 (second security review): a child of a reform (objective, result, attachment) is written in the same
 * transaction as the check that the reform may change, and the pending-upload quota is checked under a lock. A
 * database trigger makes the child's write slow, so that a transition (or another upload) runs in the middle.
 */
const reforme = {
  libref: 'Réforme disputée',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Tester les courses',
  popul_cible: 'Agents',
  couverture_id: 1,
  struct_impl: 'Directions',
  date_debut: '2026-01-01',
  date_fin: '2027-12-31',
};
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** Resolves to the order in which the promises settled. */
async function settleOrder(named: Record<string, Promise<unknown>>): Promise<string[]> {
  const order: string[] = [];
  await Promise.all(Object.entries(named).map(([name, promise]) => promise.then(() => order.push(name))));
  return order;
}

describe('a change of a reform and its children do not interleave', () => {
  let t: TestApp;
  let saisie: Caller;

  beforeAll(async () => {
    t = await createTestApp({ PENDING_UPLOADS_MAX: '2' });
    saisie = await t.as('saisie');
    // Every insert of an objective or an attachment takes 0.8 s, inside the request's statement.
    await t.database.pool.query(`
      create function slow_insert() returns trigger language plpgsql as $$ begin perform pg_sleep(0.8); return new; end $$;
      create trigger objectifs_slow before insert on objectifs for each row execute function slow_insert();
      create trigger reforme_files_slow before insert on reforme_files for each row execute function slow_insert();`);
  });
  afterAll(() => t.close());

  it('a transmission waits for an objective being written to the reform, which the reform then carries', async () => {
    const own = (await saisie.post('reformes', reforme)).json().data as { id: number };
    const creating = saisie.post('objectifs', { reforme_id: own.id, libobjectif: 'Écrit pendant la transmission' });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const transmitting = saisie.post('affectations', { reforme_id: own.id, sens: -1 });
    // Before the fix, the transmission committed while the objective was still being written to an editable reform.
    expect(await settleOrder({ objective: creating, transmission: transmitting })).toEqual(['objective', 'transmission']);
    expect((await creating).statusCode).toBe(201);
    expect((await transmitting).statusCode).toBe(200);
  });

  it('an objective started after a transmission sees the new stage and is refused, leaving nothing', async () => {
    const own = (await saisie.post('reformes', reforme)).json().data as { id: number };
    const locker = await t.database.pool.connect();
    try {
      await locker.query('begin');
      await locker.query('update reformes set stage = 2 where id = $1', [own.id]);
      const creating = saisie.post('objectifs', { reforme_id: own.id, libobjectif: 'Trop tard' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      await locker.query('commit');
      expect((await creating).statusCode).toBe(409);
    } finally {
      locker.release();
    }
    const [left] = await t.db.select({ n: count() }).from(objectifs).where(eq(objectifs.reforme_id, own.id));
    expect(left.n).toBe(0);
  });

  it('two concurrent pending uploads cannot both take the last place of the quota', async () => {
    const headers = bearer((await t.login('saisie@reformes.test')).access_token);
    const upload = (name: string) => {
      const form = new FormData();
      form.append('name_file', name);
      form.append('file', new Blob([PDF], { type: 'application/pdf' }), `${name}.pdf`);
      return t.app.inject({ method: 'POST', url: '/api/v1/files', headers, payload: form });
    };
    expect((await upload('premier')).statusCode).toBe(201);
    const answers = await Promise.all([upload('deuxième'), upload('troisième')]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 422]);
    const [pending] = await t.db.select({ n: count() }).from(reformeFiles).where(isNull(reformeFiles.reforme_id));
    expect(pending.n).toBe(2);
  });
});
