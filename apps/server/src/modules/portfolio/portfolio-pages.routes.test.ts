import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANCHOR_STEP } from '../../db/lists/index.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * Issue 33: deep pages are read by keyset from remembered page anchors instead of an OFFSET over the whole list.
 * Every page must hold the rows the plain OFFSET query gives in the same order, ties included (many reforms share
 * a registration instant, an end date, a status), with the same total, and must follow a change at once.
 */
const ROWS = 3 * ANCHOR_STEP + 37;
const PER_PAGE = 7;

describe('deep pages: the rows and totals of the plain OFFSET order (issue 33)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    // Reforms sharing registration instants (10 per instant) and end dates (a few dozen each), some inactive,
    // spread over structures, with results on a third of them so that the statuses differ.
    await t.db.execute(sql`
      insert into reformes (libref, typeref, nature_id, objectif_glob, popul_cible, couverture_id, struct_impl,
        date_debut, date_fin, periodexe, date_enreg, is_active, stage, structure_id, created_by)
      select 'Réforme de page ' || g || case when g % 4 = 0 then ' cadastre' else '' end,
        case when g % 2 = 0 then 'SECTORIELLE' else 'TRANSVERSALE' end,
        (select min(id) from natures), 'Objectif', 'Usagers', (select min(id) from covers), 'Services',
        date '2024-01-01' + (g % 5) * 90, date '2025-03-01' + (g % 9) * 300, 'période',
        timestamptz '2025-03-01 08:00:00.123456+00' + (g / 10) * interval '1 minute', g % 13 <> 0, 1 + g % 3,
        (select array_agg(id order by id) from structures)[1 + g % 3], (select min(id) from users)
      from generate_series(1, ${ROWS}) as g`);
    await t.db.execute(sql`
      insert into objectifs (libobjectif, reforme_id) select 'Objectif', id from reformes where id % 3 = 0`);
    await t.db.execute(sql`
      insert into resultats (libresult, indicateur, valeur_cible, valeurref, objectif_id, status)
      select 'Résultat', 'Taux', 100, 0, o.id, o.id % 2 from objectifs o`);
  });
  afterAll(() => t.close());

  const pagesOf = (total: number) => Array.from({ length: Math.ceil(total / PER_PAGE) + 1 }, (_, index) => index + 1);

  async function expectedPortfolio(where = sql`true`) {
    return (
      await t.db.execute<{ id: number }>(sql`
        select p.reforme_id as id from reforme_progress p join reformes r on r.id = p.reforme_id
        where p.is_active and ${where} order by p.status_rank, p.date_fin, p.reforme_id`)
    ).rows.map((row) => row.id);
  }

  async function expectedReformes(where = sql`true`) {
    return (await t.db.execute<{ id: number }>(sql`select id from reformes where ${where} order by date_enreg desc, id desc`)).rows.map(
      (row) => row.id,
    );
  }

  async function expectedPublic(where = sql`true`) {
    return (
      await t.db.execute<{ id: number }>(
        sql`select id from reformes where is_published and is_active and ${where} order by date_debut desc, id desc`,
      )
    ).rows.map((row) => row.id);
  }

  async function everyPage(
    caller: Pick<Awaited<ReturnType<TestApp['as']>>, 'get' | 'post'>,
    path: string,
    expected: number[],
    method: 'get' | 'post' = 'get',
  ) {
    for (const page of pagesOf(expected.length)) {
      const url = `${path}${path.includes('?') ? '&' : '?'}per_page=${PER_PAGE}&page=${page}`;
      const response = method === 'get' ? await caller.get(url) : await caller.post(url, { search: 'cadastre' });
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json().data as { data: Array<{ id: number }>; total: number; current_page: number };
      expect({ page, total: body.total }).toEqual({ page, total: expected.length });
      expect({ page, ids: body.data.map((row) => row.id) }).toEqual({
        page,
        ids: expected.slice((page - 1) * PER_PAGE, page * PER_PAGE),
      });
    }
  }

  it('gives every portfolio page the rows of the OFFSET order, ties broken by id, with the same total', async () => {
    const central = await t.as('saisie central');
    const expected = await expectedPortfolio();
    expect(expected.length).toBeGreaterThan(3 * ANCHOR_STEP);
    await everyPage(central, 'portfolio', expected);
    // Twice: the second pass reads the anchors kept by the first.
    await everyPage(central, 'portfolio', expected);
  });

  it('pages a filtered and a searched portfolio the same way', async () => {
    const central = await t.as('saisie central');
    await everyPage(central, 'portfolio?typeref=SECTORIELLE', await expectedPortfolio(sql`p.typeref = 'SECTORIELLE'`));
    await everyPage(central, 'portfolio?search=cadastre', await expectedPortfolio(sql`r.search_text like '%cadastre%'`));
  });

  it('follows a change at once: a reform moved to the end, another deactivated', async () => {
    const central = await t.as('saisie central');
    await everyPage(central, 'portfolio', await expectedPortfolio());
    await t.db.execute(sql`update reformes set date_fin = date '2099-12-31'
      where id = (select reforme_id from reforme_progress where is_active order by status_rank, date_fin, reforme_id limit 1)`);
    await t.db.execute(sql`update reformes set is_active = false
      where id = (select reforme_id from reforme_progress where is_active order by status_rank, date_fin, reforme_id offset 250 limit 1)`);
    await everyPage(central, 'portfolio', await expectedPortfolio());
  });

  it('gives every reform list page the rows of the OFFSET order (newest first, ties by id), searches included', async () => {
    const publication = await t.as('publication');
    await everyPage(publication, 'reformes', await expectedReformes());
    await everyPage(publication, 'reformes?typeref=TRANSVERSALE', await expectedReformes(sql`typeref = 'TRANSVERSALE'`));
    await everyPage(publication, 'reformes-search', await expectedReformes(sql`search_text like '%cadastre%'`), 'post');
    await t.db.execute(sql`update reformes set date_enreg = timestamptz '2030-01-01 00:00:00+00' where id % 50 = 7`);
    await everyPage(publication, 'reformes', await expectedReformes());
  });

  it('gives every public page the rows of the OFFSET order (newest start first, ties by id), searches included', async () => {
    // Many reforms share a start date (5 dates in all): the ties are broken by id, as the published index orders them.
    await t.db.execute(sql`update reformes set is_published = true where id % 4 <> 1`);
    const expected = await expectedPublic();
    expect(expected.length).toBeGreaterThan(2 * ANCHOR_STEP);
    await everyPage(t.anonymous, 'reformes/public/suivi-result', expected);
    await everyPage(t.anonymous, 'reformes/public/suivi-result?search=cadastre', await expectedPublic(sql`search_text like '%cadastre%'`));
    await everyPage(t.anonymous, 'reformes/public/suivi-result?typeref=SECTORIELLE', await expectedPublic(sql`typeref = 'SECTORIELLE'`));
    // A reform withdrawn and another published: the next visitor's pages and total follow at once.
    await t.db.execute(sql`update reformes set is_published = false where id = ${expected[150]}`);
    await t.db.execute(sql`update reformes set is_published = true, date_debut = date '2030-01-01', date_fin = date '2031-01-01'
      where id = (select min(id) from reformes where id % 4 = 1 and is_active)`);
    await everyPage(t.anonymous, 'reformes/public/suivi-result', await expectedPublic());
  });
});
