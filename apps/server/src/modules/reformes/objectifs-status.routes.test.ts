import { MESSAGES, objectivePercentage, REFORME_MESSAGES, SUIVI_MESSAGES } from '@reformes/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectifs, resultats, suiviResults } from '../../db/schema/index.ts';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

interface Result {
  id: number;
  libresult: string;
  status: number;
  is_active?: boolean;
}
interface Objectif {
  id: number;
  libobjectif: string;
  is_active?: boolean;
  percentage?: number | null;
  results: Result[];
}

const reforme = {
  libref: 'Réforme aux objectifs désactivables',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Garder des objectifs à jour',
  popul_cible: 'Usagers',
  couverture_id: 1,
  struct_impl: 'Directions régionales',
  date_debut: '2026-01-01',
  date_fin: '2027-12-31',
};

describe('activating and deactivating objectives and expected results', () => {
  let t: TestApp;
  let saisie: Caller;
  let central: Caller;
  let admin: Caller;
  let validation: Caller;
  let publication: Caller;
  /** saisie's own reform, still waiting for its transmission: saisie may change it. */
  let ownId: number;
  /** saisie central's own reform (it starts at the publication stage), published in the last part. */
  let centralReforme: { id: number; libref: string };

  const anonymous = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1/${url}` });
  const setState = (caller: Caller, resource: 'objectifs' | 'resultats', id: number, state: 0 | 1) =>
    caller.get(`${resource}/${id}/state/${state}`);

  async function newObjectif(caller: Caller, reformeId: number, libobjectif: string, libresults: string[]) {
    const objectif = (await caller.post('objectifs', { reforme_id: reformeId, libobjectif })).json().data as { id: number };
    const results: number[] = [];
    for (const libresult of libresults) {
      const created = await caller.post('resultats', {
        objectif_id: objectif.id,
        libresult,
        indicateur: 'Taux (%)',
        valeur_cible: '100',
        valeurref: '0',
      });
      expect(created.statusCode).toBe(201);
      results.push(created.json().data.id);
    }
    return { id: objectif.id, results };
  }

  /** What the follow-up screens receive for one reform. */
  const suiviOf = async (caller: Caller, reformeId: number) => {
    const response = await caller.get(`reformes/users/get-suivi-result?reforme_id=${reformeId}`);
    expect(response.statusCode).toBe(200);
    return (response.json().data as Array<{ objectifs: Objectif[] }>)[0].objectifs;
  };

  beforeAll(async () => {
    t = await createTestApp();
    saisie = await t.as('saisie');
    central = await t.as('saisie central');
    admin = await t.as('admin');
    validation = await t.as('validation');
    publication = await t.as('publication');
    const created = await saisie.post('reformes', reforme);
    expect(created.statusCode).toBe(201);
    ownId = created.json().data.id;
    const structures = (await central.get('structures')).json().data as Array<{ id: number; sigl: string }>;
    const centralCreated = await central.post('reformes', {
      ...reforme,
      libref: 'Réforme publiée aux objectifs désactivables',
      structure_id: structures.find((row) => row.sigl === 'ANUM')?.id,
    });
    expect(centralCreated.statusCode).toBe(201);
    centralReforme = centralCreated.json().data;
  });
  afterAll(() => t.close());

  describe('rights', () => {
    it('gives the status right on objectives and results to the roles that manage them, and only to them', async () => {
      for (const email of ['saisie@reformes.test', 'central@reformes.test']) {
        expect((await t.login(email)).features).toEqual(expect.arrayContaining(['objectifs.status', 'resultats.status']));
      }
      for (const email of ['admin@reformes.test', 'validation@reformes.test', 'publication@reformes.test']) {
        const features = (await t.login(email)).features;
        expect(features).not.toContain('objectifs.status');
        expect(features).not.toContain('resultats.status');
      }
    });

    it('lets saisie deactivate then reactivate its objective, which keeps showing on the management screens', async () => {
      const { id, results } = await newObjectif(saisie, ownId, 'Objectif à mettre en pause', ['Résultat en pause']);

      const off = await setState(saisie, 'objectifs', id, 0);
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ message: MESSAGES.deactivated, data: { id, is_active: false } });

      const listed = (await saisie.get(`objectifs?reforme_id=${ownId}`)).json().data as Objectif[];
      expect(listed.find((row) => row.id === id)).toMatchObject({ is_active: false });
      const byReforme = (await saisie.get(`objectifs/by-reforme/${ownId}`)).json().data as Objectif[];
      expect(byReforme.find((row) => row.id === id)).toMatchObject({ is_active: false, results: [{ id: results[0] }] });
      const detail = (await saisie.get(`reformes/${ownId}`)).json().data as { objectifs: Objectif[] };
      expect(detail.objectifs.find((row) => row.id === id)).toMatchObject({ is_active: false, results: [{ is_active: true }] });

      const on = await setState(saisie, 'objectifs', id, 1);
      expect(on.statusCode).toBe(200);
      expect(on.json()).toMatchObject({ message: MESSAGES.activated, data: { id, is_active: true } });
    });

    it('lets saisie deactivate then reactivate an expected result', async () => {
      const { results } = await newObjectif(saisie, ownId, 'Objectif aux résultats variables', ['Résultat variable']);
      const off = await setState(saisie, 'resultats', results[0], 0);
      expect(off.statusCode).toBe(200);
      expect(off.json()).toMatchObject({ message: MESSAGES.deactivated, data: { id: results[0], is_active: false } });
      expect((await saisie.get(`resultats/${results[0]}`)).json().data).toMatchObject({ is_active: false });
      const on = await setState(saisie, 'resultats', results[0], 1);
      expect(on.statusCode).toBe(200);
      expect(on.json()).toMatchObject({ message: MESSAGES.activated, data: { id: results[0], is_active: true } });
    });

    it('lets saisie central do the same on a reform it may change', async () => {
      const { id, results } = await newObjectif(central, centralReforme.id, 'Objectif central provisoire', ['Résultat central provisoire']);
      for (const [resource, target] of [
        ['objectifs', id],
        ['resultats', results[0]],
      ] as const) {
        expect((await setState(central, resource, target, 0)).json()).toMatchObject({ data: { is_active: false } });
        expect((await setState(central, resource, target, 1)).json()).toMatchObject({ data: { is_active: true } });
      }
      expect((await central.delete(`objectifs/${id}`)).statusCode).toBe(200);
    });

    it('refuses the state calls to admin, validation and publication (403)', async () => {
      const { id, results } = await newObjectif(saisie, ownId, 'Objectif protégé', ['Résultat protégé']);
      for (const caller of [admin, validation, publication]) {
        for (const [resource, target] of [
          ['objectifs', id],
          ['resultats', results[0]],
        ] as const) {
          const response = await setState(caller, resource, target, 0);
          expect(response.statusCode).toBe(403);
          expect(response.json().message).toBe(MESSAGES.forbidden);
        }
      }
      expect((await saisie.get(`objectifs/${id}`)).json().data).toMatchObject({ is_active: true, results: [{ is_active: true }] });
    });
  });

  describe('follow-up', () => {
    it('leaves a deactivated objective and a deactivated result out of get-suivi-result, and out of the percentage', async () => {
      const hidden = await newObjectif(saisie, ownId, 'Objectif abandonné', ['Résultat abandonné']);
      const kept = await newObjectif(saisie, ownId, 'Objectif poursuivi', ['Résultat tenu', 'Résultat retiré']);
      // The first result is validated, the second one (pending) is then deactivated: 100 % of what is left.
      await t.db.update(resultats).set({ status: 1 }).where(eq(resultats.id, kept.results[0]));
      expect((await setState(saisie, 'objectifs', hidden.id, 0)).statusCode).toBe(200);
      expect((await setState(saisie, 'resultats', kept.results[1], 0)).statusCode).toBe(200);

      const nested = await suiviOf(saisie, ownId);
      expect(nested.map((row) => row.id)).not.toContain(hidden.id);
      const poursuivi = nested.find((row) => row.id === kept.id) as Objectif;
      expect(poursuivi.results.map((row) => row.id)).toEqual([kept.results[0]]);
      expect(objectivePercentage(poursuivi.results)).toBe(100);

      // The reform picker's pages carry the same nested data.
      const page = (
        await saisie.get(`reformes/users/get-suivi-result?per_page=5&page=1&search=${encodeURIComponent('désactivables')}`)
      ).json().data.data as Array<{ id: number; objectifs: Objectif[] }>;
      const picked = page.find((row) => row.id === ownId);
      expect(picked?.objectifs.map((row) => row.id)).not.toContain(hidden.id);
      expect(picked?.objectifs.find((row) => row.id === kept.id)?.results.map((row) => row.id)).toEqual([kept.results[0]]);

      // Reactivated, both come back.
      await setState(saisie, 'objectifs', hidden.id, 1);
      await setState(saisie, 'resultats', kept.results[1], 1);
      const again = await suiviOf(saisie, ownId);
      expect(again.map((row) => row.id)).toContain(hidden.id);
      const both = again.find((row) => row.id === kept.id) as Objectif;
      expect(both.results.map((row) => row.id)).toEqual(kept.results);
      expect(objectivePercentage(both.results)).toBe(50);
    });

    it('refuses a follow-up record on a deactivated result, or on a result of a deactivated objective (409)', async () => {
      const { id, results } = await newObjectif(saisie, ownId, 'Objectif suivi puis arrêté', ['Résultat suivi', 'Autre résultat']);
      const record = (resultId: number, date: string) =>
        saisie.post('suivi-results', { result_id: resultId, taux_realisat: '10', valeur_realise: '1', date });
      expect((await record(results[0], '2026-02-01')).statusCode).toBe(201);

      await setState(saisie, 'resultats', results[0], 0);
      const onResult = await record(results[0], '2026-03-01');
      expect(onResult.statusCode).toBe(409);
      expect(onResult.json()).toMatchObject({ message: SUIVI_MESSAGES.resultInactive });

      await setState(saisie, 'resultats', results[0], 1);
      await setState(saisie, 'objectifs', id, 0);
      for (const resultId of results) {
        const response = await record(resultId, '2026-03-01');
        expect(response.statusCode).toBe(409);
        expect(response.json().message).toBe(SUIVI_MESSAGES.resultInactive);
      }

      await setState(saisie, 'objectifs', id, 1);
      expect((await record(results[0], '2026-03-01')).statusCode).toBe(201);
      const records = await t.db.select().from(suiviResults).where(eq(suiviResults.result_id, results[0]));
      expect(records).toHaveLength(2);
    });

    it('refuses to validate a deactivated result, or a result of a deactivated objective (409)', async () => {
      const { id, results } = await newObjectif(saisie, ownId, 'Objectif à valider plus tard', ['Résultat à valider']);
      await saisie.post('suivi-results', { result_id: results[0], taux_realisat: '100', valeur_realise: '1', date: '2026-04-01' });
      const validate = () => publication.put(`resultats/${results[0]}`, { status: 1 });

      await setState(saisie, 'resultats', results[0], 0);
      let response = await validate();
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ message: REFORME_MESSAGES.resultInactive });

      await setState(saisie, 'resultats', results[0], 1);
      await setState(saisie, 'objectifs', id, 0);
      response = await validate();
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toBe(REFORME_MESSAGES.resultInactive);
      expect((await t.db.select().from(resultats).where(eq(resultats.id, results[0])))[0].status).toBe(0);

      await setState(saisie, 'objectifs', id, 1);
      response = await validate();
      expect(response.statusCode).toBe(200);
      expect(response.json().message).toBe(REFORME_MESSAGES.resultValidated);
    });
  });

  describe('public page and open data', () => {
    let published: { id: number; libref: string };
    let gone: { id: number; results: number[] };
    let progress: { id: number; results: number[] };

    const publicDetail = async () => {
      const response = await anonymous(`reformes/public/${published.id}`);
      expect(response.statusCode).toBe(200);
      return response.json().data as { objectifs: Objectif[] };
    };

    beforeAll(async () => {
      published = centralReforme;
      gone = await newObjectif(central, published.id, 'Objectif public retiré', ['Résultat public retiré']);
      progress = await newObjectif(central, published.id, 'Objectif public en cours', [
        'Résultat public validé',
        'Résultat public en attente',
        'Résultat public validé puis retiré',
      ]);
      await t.db.insert(suiviResults).values([
        { result_id: progress.results[0], taux_realisat: '100', valeur_realise: '1', date: '2026-06-30' },
        { result_id: progress.results[2], taux_realisat: '100', valeur_realise: '1', date: '2026-06-30' },
      ]);
      for (const resultId of [progress.results[0], progress.results[2]]) {
        expect((await publication.put(`resultats/${resultId}`, { status: 1 })).statusCode).toBe(200);
      }
      expect((await central.get(`reformes/state/publish/${published.id}`)).statusCode).toBe(200);
    });

    it('shows everything while all is active: 2 validated results out of 3', async () => {
      const detail = await publicDetail();
      expect(detail.objectifs.map((row) => row.id)).toEqual([gone.id, progress.id]);
      expect(detail.objectifs[1].percentage).toBe((2 / 3) * 100);
    });

    it('leaves a deactivated objective and a deactivated result out of the public detail and its percentage', async () => {
      // The state is written directly: this is about what a visitor sees, not about who may change a published reform.
      await t.db.update(objectifs).set({ is_active: false }).where(eq(objectifs.id, gone.id));
      await t.db.update(resultats).set({ is_active: false }).where(eq(resultats.id, progress.results[2]));

      const response = await anonymous(`reformes/public/${published.id}`);
      expect(response.body).not.toContain('Objectif public retiré');
      expect(response.body).not.toContain('Résultat public validé puis retiré');
      const detail = response.json().data as { objectifs: Objectif[] };
      expect(detail.objectifs.map((row) => row.id)).toEqual([progress.id]);
      expect(detail.objectifs[0].results.map((row) => row.id)).toEqual(progress.results.slice(0, 2));
      expect(detail.objectifs[0].percentage).toBe(50);
    });

    it('still lists the reform publicly, and no deactivated text reaches the open data', async () => {
      const list = (await anonymous(`reformes/public/suivi-result?search=${encodeURIComponent('objectifs désactivables')}`)).json().data;
      expect(list.total).toBe(1);
      expect(list.data.map((row: { id: number }) => row.id)).toEqual([published.id]);
      for (const format of ['csv', 'json']) {
        const response = await anonymous(`reformes/public/export.${format}`);
        expect(response.statusCode).toBe(200);
        expect(response.body).toContain('Réforme publiée aux objectifs désactivables');
        expect(response.body).not.toContain('Objectif public retiré');
        expect(response.body).not.toContain('Résultat public validé puis retiré');
      }
    });

    it('keeps showing both to staff, with their state, so they can be reactivated', async () => {
      const detail = (await central.get(`reformes/${published.id}`)).json().data as { objectifs: Objectif[] };
      expect(detail.objectifs.find((row) => row.id === gone.id)).toMatchObject({ is_active: false });
      const results = detail.objectifs.find((row) => row.id === progress.id)?.results ?? [];
      expect(results.map((row) => row.is_active)).toEqual([true, true, false]);
      // The staff sheet computes the percentage from these rows: the deactivated result does not count.
      expect(objectivePercentage(results)).toBe(50);
    });
  });
});
