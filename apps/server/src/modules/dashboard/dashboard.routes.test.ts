import { ETATS_MOR } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.ts';

const FORBIDDEN = "Vous n'avez pas les droits nécessaires pour effectuer cette action.";
const NATURES = ['Administrative', 'Institutionnelle', 'Structurelle'] as const;
const ETATS = ['en_cours', 'planifiee', 'terminee', 'suspendue'] as const;

interface DemoReforme {
  structure: 'MS' | 'MEN' | 'DGB';
  nature: (typeof NATURES)[number];
  stage: 1 | 2 | 3;
  isPublished: boolean;
  etat: (typeof ETATS)[number];
}

/** The thirty demo reforms, rebuilt from the seed's documented rules rather than read back from the database. */
const DEMO_REFORMES: DemoReforme[] = Array.from({ length: 30 }, (_, i) => {
  const stage = ([1, 2, 3] as const)[i % 3];
  return {
    structure: i % 5 === 4 ? 'MEN' : i % 5 === 3 ? 'DGB' : 'MS',
    nature: NATURES[i % 3],
    stage,
    isPublished: stage === 3 && i % 2 === 0,
    etat: ETATS[i % 4],
  };
});

function expectedCounters(rows: DemoReforme[], pendingStage: number | undefined) {
  return {
    total_reforme: rows.length,
    total_reforme_admin: rows.filter((r) => r.nature === 'Administrative').length,
    total_reforme_ins: rows.filter((r) => r.nature === 'Institutionnelle').length,
    total_pending: rows.filter((r) => r.stage === pendingStage && !r.isPublished).length,
  };
}

const inStructure = (sigl: string) => DEMO_REFORMES.filter((r) => r.structure === sigl);

describe('dashboard counters', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const dash = (email: string, path = '/api/v1/dash') => t.app.inject({ method: 'GET', url: path, headers: bearer(tokens[email]) });

  beforeAll(async () => {
    t = await createTestApp();
    for (const email of ['admin', 'central', 'saisie', 'validation', 'publication']) {
      tokens[email] = (await t.login(`${email}@reformes.test`)).access_token;
    }
  });
  afterAll(() => t.close());

  it('matches the seed rules: 30 reforms, 18 of them in MS', () => {
    expect(DEMO_REFORMES).toHaveLength(30);
    expect(inStructure('MS')).toHaveLength(18);
  });

  it('agrees with an independent count of the database for the saisie structure', async () => {
    const result = await t.db.execute<{ total: number; admin: number; ins: number; pending: number }>(sql`
      select count(*)::int as total,
        sum(case when n.libnature = 'Administrative' then 1 else 0 end)::int as admin,
        sum(case when n.libnature = 'Institutionnelle' then 1 else 0 end)::int as ins,
        sum(case when r.stage = 1 and r.is_published = false then 1 else 0 end)::int as pending
      from reformes r, natures n, structures s
      where n.id = r.nature_id and s.id = r.structure_id and s.sigl = 'MS'`);
    const expected = expectedCounters(inStructure('MS'), 1);
    expect(result.rows[0]).toEqual({
      total: expected.total_reforme,
      admin: expected.total_reforme_admin,
      ins: expected.total_reforme_ins,
      pending: expected.total_pending,
    });
  });

  it('shows saisie only the reforms of its structure, with those awaiting transmission', async () => {
    const response = await dash('saisie');
    expect(response.statusCode).toBe(200);
    const { data, message } = response.json();
    expect(message).toBe('Opération effectuée avec succès');
    expect(data).toMatchObject(expectedCounters(inStructure('MS'), 1));
    expect(data).toMatchObject({ total_reforme: 18, total_reforme_admin: 6, total_reforme_ins: 6, total_pending: 6 });
  });

  it('shows validation the reforms of its structure awaiting validation', async () => {
    const response = await dash('validation');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject(expectedCounters(inStructure('MS'), 2));
  });

  it('shows publication every structure and the unpublished reforms awaiting publication', async () => {
    const response = await dash('publication');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject(expectedCounters(DEMO_REFORMES, 3));
    expect(response.json().data.total_pending).toBe(5);
  });

  it('shows saisie central every structure and the reforms awaiting transmission', async () => {
    const response = await dash('central');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject(expectedCounters(DEMO_REFORMES, 1));
  });

  it('shows admin every reform plus the user and structure counts', async () => {
    const response = await dash('admin');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toMatchObject({ ...expectedCounters(DEMO_REFORMES, undefined), users: 5, total_structures: 5 });
    expect(data.total_reforme).toBe(30);
    expect(data.total_pending).toBe(0);
  });

  it('breaks the reforms in scope down by state and by nature, with French labels', async () => {
    const response = await dash('saisie');
    const { data } = response.json();
    const ms = inStructure('MS');
    expect(data.by_etat).toEqual(
      ETATS_MOR.map((etat) => ({ etat_mor: etat.value, label: etat.label, total: ms.filter((r) => r.etat === etat.value).length })),
    );
    expect(data.by_etat.map((row: { label: string }) => row.label)).toEqual(['En cours', 'Planifiée', 'Terminée', 'Suspendue']);
    expect(data.by_nature).toEqual(
      NATURES.map((libnature) => ({
        id: expect.any(Number),
        code: libnature.toLowerCase(),
        libnature,
        total: ms.filter((r) => r.nature === libnature).length,
      })),
    );
  });

  it('counts natures by their code, so renaming a nature keeps the counters', async () => {
    const before = (await dash('admin')).json().data;
    await t.db.execute(sql`update natures set libnature = 'Réforme administrative' where code = 'administrative'`);
    const after = (await dash('admin')).json().data;
    expect(after.total_reforme_admin).toBe(before.total_reforme_admin);
    expect(after.total_reforme_admin).toBeGreaterThan(0);
    await t.db.execute(sql`update natures set libnature = 'Administrative' where code = 'administrative'`);
  });

  it('counts only active reforms and follows the data live', async () => {
    const before = (await dash('saisie')).json().data;
    const [{ id }] = (
      await t.db.execute<{ id: number }>(sql`
        select r.id from reformes r join structures s on s.id = r.structure_id join natures n on n.id = r.nature_id
        where s.sigl = 'MS' and n.libnature = 'Administrative' and r.stage = 1 order by r.id limit 1`)
    ).rows;
    try {
      await t.db.execute(sql`update reformes set is_active = false where id = ${id}`);
      const after = (await dash('saisie')).json().data;
      expect(after.total_reforme).toBe(before.total_reforme - 1);
      expect(after.total_reforme_admin).toBe(before.total_reforme_admin - 1);
      expect(after.total_pending).toBe(before.total_pending - 1);
    } finally {
      await t.db.execute(sql`update reformes set is_active = true where id = ${id}`);
    }
    expect((await dash('saisie')).json().data).toEqual(before);
  });

  it('keeps its trigger-maintained counters equal to a direct count through inserts, updates and deletes', async () => {
    const direct = sql`select structure_id, nature_id, couverture_id, typeref, coalesce(etat_mor, '') as etat_mor, stage, is_published,
      is_active, count(*)::int as total from reformes group by 1, 2, 3, 4, 5, 6, 7, 8 order by 1, 2, 3, 4, 5, 6, 7, 8`;
    const kept = sql`select structure_id, nature_id, couverture_id, typeref, etat_mor, stage, is_published, is_active, total
      from reforme_counts where total <> 0 order by 1, 2, 3, 4, 5, 6, 7, 8`;
    const agree = async () => expect((await t.db.execute(kept)).rows).toEqual((await t.db.execute(direct)).rows);
    await agree();
    await t.db.execute(sql`
      insert into reformes (libref, typeref, nature_id, objectif_glob, popul_cible, couverture_id, struct_impl,
        date_debut, date_fin, periodexe, etat_mor, stage, structure_id, created_by)
      select 'Compteur ' || g, 'SECTORIELLE', (select min(id) from natures) + g % 3, 'o', 'p', (select min(id) from covers), 's',
        date '2026-01-01', date '2026-02-01', 'Du 01/01/2026 au 01/02/2026', case when g % 2 = 0 then 'en_cours' end, 1 + g % 3,
        (select min(id) from structures) + g % 2, (select min(id) from users)
      from generate_series(1, 40) as g`);
    await agree();
    await t.db.execute(
      sql`update reformes set stage = 3 - stage + 1, is_published = not is_published, etat_mor = null, typeref = 'TRANSVERSALE', couverture_id = (select max(id) from covers) where libref like 'Compteur %' and id % 3 = 0`,
    );
    await t.db.execute(sql`update reformes set is_active = false where libref like 'Compteur %' and id % 5 = 0`);
    await agree();
    await t.db.execute(sql`delete from reformes where libref like 'Compteur %'`);
    await agree();
  });

  it('refuses the dashboard without a session (401)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/dash' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ message: 'Session expirée ou absente, veuillez vous reconnecter.' });
  });

  describe('GET dash/{role}', () => {
    it('answers a role its own view (200)', async () => {
      const saisie = await dash('saisie', '/api/v1/dash/saisie');
      expect(saisie.statusCode).toBe(200);
      expect(saisie.json().data).toMatchObject(expectedCounters(inStructure('MS'), 1));

      const central = await dash('central', '/api/v1/dash/saisie%20central');
      expect(central.statusCode).toBe(200);
      expect(central.json().data).toMatchObject(expectedCounters(DEMO_REFORMES, 1));

      const validation = await dash('validation', '/api/v1/dash/validation/');
      expect(validation.statusCode).toBe(200);
      expect(validation.json().data).toMatchObject(expectedCounters(inStructure('MS'), 2));
    });

    it("refuses another role's view to a non-admin (403)", async () => {
      for (const [email, role] of [
        ['saisie', 'validation'],
        ['validation', 'publication'],
        ['publication', 'admin'],
        ['central', 'saisie'],
      ]) {
        const response = await dash(email, `/api/v1/dash/${encodeURIComponent(role)}`);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ message: FORBIDDEN });
      }
    });

    it('refuses an unknown role, even to admin (403)', async () => {
      const response = await dash('admin', '/api/v1/dash/inconnu');
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: FORBIDDEN });
    });

    it('lets admin open any role view (200)', async () => {
      for (const role of ['admin', 'saisie', 'validation', 'publication', 'saisie central']) {
        const response = await dash('admin', `/api/v1/dash/${encodeURIComponent(role)}`);
        expect(response.statusCode).toBe(200);
        expect(response.json().data).toMatchObject({ users: 5, total_structures: 5 });
      }
      const publication = await dash('admin', '/api/v1/dash/publication');
      expect(publication.json().data).toMatchObject(expectedCounters(DEMO_REFORMES, 3));
    });
  });
});
