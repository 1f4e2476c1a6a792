import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

interface PagedBody<T = { id: number; libref?: string }> {
  isPaginate: boolean;
  data: { data: T[]; current_page: number; per_page: number; total: number; last_page: number };
}

/** 1 200 extra reforms (more than any former cap) with an objective and a result each; 250 of them say "palmeraie". */
const EXTRA = 1200;
const MATCHING = 250;

describe('no list, search or picker drops rows silently', () => {
  let t: TestApp;
  let central: Caller;
  let saisie: Caller;
  let oldestId: number;

  beforeAll(async () => {
    t = await createTestApp();
    central = await t.as('saisie central');
    saisie = await t.as('saisie');
    // The oldest reform of all is registered long ago, in saisie's structure, with a label nobody else uses.
    await t.db.execute(sql`
      insert into reformes (libref, typeref, nature_id, objectif_glob, popul_cible, couverture_id, struct_impl,
        date_debut, date_fin, periodexe, stage, structure_id, created_by, date_enreg)
      select case when g <= ${MATCHING} then 'Réforme de la palmeraie n° ' || g
                  when g = ${EXTRA} then 'Cadastre des oasis anciennes'
                  else 'Réforme de masse n° ' || g end,
        'SECTORIELLE', (select min(id) from natures), 'Objectif ' || g, 'Population', (select min(id) from covers),
        'Structures', date '2020-01-01', date '2021-01-01', 'Du 01/01/2020 au 01/01/2021', 1,
        (select structure_id from users where email = 'saisie@reformes.test'),
        (select id from users where email = 'saisie@reformes.test'),
        timestamptz '2020-01-01' + (${EXTRA} - g) * interval '1 hour'
      from generate_series(1, ${EXTRA}) as g`);
    const [oldest] = (await t.db.execute<{ id: number }>(sql`select id from reformes where libref = 'Cadastre des oasis anciennes'`)).rows;
    oldestId = oldest.id;
    await t.db.execute(sql`
      insert into objectifs (libobjectif, reforme_id) select 'Objectif de ' || libref, id from reformes where libref like 'Réforme de %';
      insert into resultats (libresult, indicateur, valeur_cible, valeurref, objectif_id)
        select 'Résultat de ' || o.libobjectif, 'Indicateur', 100, 0, o.id from objectifs o
        where o.libobjectif like 'Objectif de Réforme de%'`);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('finds the oldest of more than 1 000 reforms in the follow-up picker by part of its label', async () => {
    const response = await saisie.get('reformes/users/get-suivi-result?per_page=20&page=1&search=oasis%20ANCIENNES');
    expect(response.statusCode).toBe(200);
    const body = response.json() as PagedBody;
    expect(body.isPaginate).toBe(true);
    expect(body.data.total).toBe(1);
    expect(body.data.data.map((row) => row.id)).toEqual([oldestId]);

    const one = (await saisie.get(`reformes/users/get-suivi-result?reforme_id=${oldestId}`)).json();
    expect(one.isPaginate).toBe(false);
    expect(one.data).toHaveLength(1);
    expect(one.data[0]).toMatchObject({ id: oldestId, libref: 'Cadastre des oasis anciennes', objectifs: [] });
  });

  it('pages the follow-up picker with its true total, each reform nested', async () => {
    const body = (await central.get('reformes/users/get-suivi-result?per_page=20&page=3&search=palmeraie')).json() as PagedBody<{
      id: number;
      objectifs: Array<{ results: unknown[] }>;
    }>;
    expect(body.data).toMatchObject({ total: MATCHING, per_page: 20, current_page: 3, last_page: 13 });
    expect(body.data.data).toHaveLength(20);
    for (const reforme of body.data.data) expect(reforme.objectifs[0].results).toHaveLength(1);
  });

  it('pages a search of 250 matches through all 250 with the right total, on both search paths', async () => {
    for (const url of ['reformes-search', 'reformes/-search']) {
      const seen = new Set<number>();
      for (let page = 1; page <= 25; page++) {
        const body = (await central.post(`${url}?per_page=10&page=${page}`, { search: 'PALMERAIE' })).json() as PagedBody;
        expect(body.isPaginate).toBe(true);
        expect(body.data.total).toBe(MATCHING);
        expect(body.data.last_page).toBe(25);
        for (const row of body.data.data) seen.add(row.id);
      }
      expect(seen.size).toBe(MATCHING);
    }
    // The page may also travel in the body.
    const inBody = (await central.post('reformes-search', { search: 'palmeraie', per_page: 10, page: 25 })).json() as PagedBody;
    expect(inBody.data).toMatchObject({ current_page: 25, total: MATCHING });
    expect(inBody.data.data).toHaveLength(10);
  });

  it('keeps the total of a repeated search exact through inserts, edits and deletes', async () => {
    const total = async () =>
      ((await central.post('reformes-search?per_page=10&page=2', { search: 'oliveraie' })).json() as PagedBody).data.total;
    expect(await total()).toBe(0);
    await t.db.execute(sql`update reformes set libref = 'Réforme de l''oliveraie n° ' || id where libref like 'Réforme de masse n° 30_'`);
    expect(await total()).toBe(10);
    expect(await total()).toBe(10);
    await t.db.execute(sql`insert into reformes (libref, typeref, nature_id, objectif_glob, popul_cible, couverture_id, struct_impl,
        date_debut, date_fin, periodexe, structure_id, created_by)
      select 'Oliveraie bis', 'SECTORIELLE', (select min(id) from natures), 'o', 'p', (select min(id) from covers), 's',
        date '2026-01-01', date '2026-02-01', 'Du 01/01/2026 au 01/02/2026', (select min(id) from structures), (select min(id) from users)`);
    expect(await total()).toBe(11);
    await t.db.execute(sql`delete from reformes where libref like '%liveraie%'`);
    expect(await total()).toBe(0);
  });

  it('answers a search without per_page whole when it fits, and never cut', async () => {
    const body = (await central.post('reformes-search', { search: 'palmeraie' })).json();
    expect(body.isPaginate).toBe(false);
    expect(body.data).toHaveLength(MATCHING);
  });

  it('turns a whole list of more than 1 000 rows into pages that say their total', async () => {
    const total = (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from reformes`)).rows[0].n;
    expect(total).toBeGreaterThan(1000);
    const first = (await central.get('reformes')).json() as PagedBody;
    expect(first.isPaginate).toBe(true);
    expect(first.data).toMatchObject({ total, per_page: 1000, current_page: 1, last_page: 2 });
    const second = (await central.get('reformes?page=2')).json() as PagedBody;
    expect(second.data.data).toHaveLength(total - 1000);
    expect(second.data.data.map((row) => row.id)).toContain(oldestId);
  });

  it('gives every page, including the deep ones read from the other end, in the list order', async () => {
    const ordered = (await t.db.execute<{ id: number }>(sql`select id from reformes order by date_enreg desc, id desc`)).rows.map(
      (row) => row.id,
    );
    const perPage = 7;
    const lastPage = Math.ceil(ordered.length / perPage);
    for (const page of [1, 2, Math.floor(lastPage / 2), Math.floor(lastPage / 2) + 1, lastPage - 1, lastPage, lastPage + 1]) {
      const body = (await central.get(`reformes?per_page=${perPage}&page=${page}`)).json() as PagedBody;
      expect(body.data.total).toBe(ordered.length);
      expect(body.data.data.map((row) => row.id)).toEqual(ordered.slice((page - 1) * perPage, page * perPage));
    }
  });

  it('searches the treatment list and my records on the server, with their true totals', async () => {
    const byRole = (await saisie.get('reformes/users/get-by-role?per_page=10&page=1&search=palmeraie')).json() as PagedBody;
    expect(byRole.data.total).toBe(MATCHING);
    const mine = (await saisie.get('reformes/users/get-my-list?per_page=10&page=2&search=oasis')).json() as PagedBody;
    expect(mine.data).toMatchObject({ total: 1, current_page: 2, data: [] });
    const mineFirst = (await saisie.get('reformes/users/get-my-list?per_page=10&page=1&search=oasis')).json() as PagedBody;
    expect(mineFirst.data.data.map((row) => row.id)).toEqual([oldestId]);
  });

  it('pages objectives and expected results, filtered by reform, objective or text', async () => {
    const objectifs = (await central.get('objectifs?per_page=10&page=1&search=palmeraie')).json() as PagedBody;
    expect(objectifs.data.total).toBe(MATCHING);
    const searched = (await central.post('objectifs-search?per_page=10&page=25', { search: 'palmeraie' })).json() as PagedBody;
    expect(searched.data).toMatchObject({ total: MATCHING, current_page: 25 });
    expect(searched.data.data).toHaveLength(10);
    const resultats = (await central.get('resultats?per_page=10&page=1')).json() as PagedBody;
    expect(resultats.data.total).toBeGreaterThan(1000);
    const resultSearch = (await central.post('resultats-search', { search: 'palmeraie', per_page: 50 })).json() as PagedBody;
    expect(resultSearch.data).toMatchObject({ total: MATCHING, last_page: 5 });
    const objectifId = (objectifs.data.data[0] as { id: number }).id;
    const ofObjectif = (await central.get(`resultats?per_page=10&objectif_id=${objectifId}`)).json() as PagedBody;
    expect(ofObjectif.data.total).toBe(1);
  });

  it('pages the searches of reference lists and users with their true totals', async () => {
    await t.db.execute(sql`insert into sectors (libsecteur) select 'Secteur agricole ' || g from generate_series(1, 250) as g`);
    const sectors = (await central.post('sectors-search?per_page=10&page=25', { search: 'agricole' })).json() as PagedBody;
    expect(sectors.data).toMatchObject({ total: 250, current_page: 25, last_page: 25 });
    expect(sectors.data.data).toHaveLength(10);
    const whole = (await central.post('sectors-search', { search: 'agricole' })).json();
    expect(whole.data).toHaveLength(250);

    const admin = await t.as('admin');
    const users = (await admin.post('users-search?per_page=2&page=1', { search: 'reformes.test' })).json() as PagedBody;
    expect(users.data).toMatchObject({ total: 5, last_page: 3 });
    expect(users.data.data).toHaveLength(2);
  });

  it('refuses a page size beyond the maximum (422), never a 500', async () => {
    const response = await central.post('reformes-search?per_page=1000', { search: 'palmeraie' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toHaveProperty('message');
  });
});
