import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

interface Suivi {
  id: number;
  result_id: number;
  taux_realisat: string;
  valeur_realise: string;
  date: string;
}
interface NestedResult {
  id: number;
  objectif_id: number;
  status: number;
  suivi_results: Suivi[];
}
interface NestedReforme {
  id: number;
  libref: string;
  objectifs: Array<{ id: number; reforme_id: number; results: NestedResult[] }>;
}
interface ReformeRow {
  id: number;
  structure_id: number;
  is_active: boolean;
  stage: number;
}

const MESSAGES = {
  created: 'Donnée de suivi enregistrée avec succès',
  invalid: 'Les données envoyées sont invalides.',
  resultRequired: 'Veuillez sélectionner un résultat',
  dateBeforeLast: 'On ne peut avoir une date antérieur au dernier enregistrement!',
  rate: 'Le taux de réalisation doit être un nombre positif ou nul',
  value: 'La valeur réalisée doit être un nombre positif ou nul',
  notFound: "L'élément demandé est introuvable.",
  forbidden: "Vous n'avez pas les droits nécessaires pour effectuer cette action.",
  deleted: 'Suppression effectuée avec succès',
  validated: 'Validation de résultat effectuée avec succès',
  needsFollowUp: "Un résultat ne peut être validé qu'après au moins une donnée de suivi.",
  alreadyValidated: 'Ce résultat est déjà validé.',
};

const reforme = {
  libref: 'Réforme suivie pas à pas',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Suivre les réalisations',
  popul_cible: 'Usagers',
  couverture_id: 1,
  struct_impl: 'Directions régionales',
  date_debut: '2026-01-01',
  date_fin: '2027-12-31',
};

describe('follow-up records (suivi-results)', () => {
  let t: TestApp;
  let saisie: Caller;
  let validation: Caller;
  let publication: Caller;
  let central: Caller;
  let structureId: Record<string, number>;
  let allReformes: ReformeRow[];
  let ownReformeId: number;

  const record = (caller: Caller, payload: object) => caller.post('suivi-results', payload);
  const recordsOf = async (resultId: number, caller: Caller = saisie) =>
    (await caller.get(`suivi-results?result_id=${resultId}`)).json().data as Suivi[];
  const nested = async (caller: Caller, query = '') =>
    (await caller.get(`reformes/users/get-suivi-result${query}`)).json().data as NestedReforme[];
  /** A fresh expected result on saisie's own reform, with no follow-up record yet. */
  async function newResult(libresult = 'Délai moyen de traitement') {
    const objectif = (await saisie.post('objectifs', { reforme_id: ownReformeId, libobjectif: `Objectif — ${libresult}` })).json().data as {
      id: number;
    };
    const result = await saisie.post('resultats', {
      objectif_id: objectif.id,
      libresult,
      indicateur: 'Délai (jours)',
      valeur_cible: '10',
      valeurref: '45',
    });
    expect(result.statusCode).toBe(201);
    return result.json().data.id as number;
  }
  /** A result of a demo reform of the given structure (seen through saisie central, who sees all). */
  async function resultOfStructure(sigl: string) {
    const reformeIds = allReformes.filter((row) => row.structure_id === structureId[sigl] && row.is_active).map((row) => row.id);
    for (const id of reformeIds) {
      const [found] = await nested(central, `?reforme_id=${id}`);
      const result = found?.objectifs.flatMap((objectif) => objectif.results)[0];
      if (result) return result;
    }
    throw new Error(`no result in ${sigl}`);
  }

  beforeAll(async () => {
    t = await createTestApp();
    saisie = await t.as('saisie');
    validation = await t.as('validation');
    publication = await t.as('publication');
    central = await t.as('saisie central');
    const structureRows = (await central.get('structures')).json().data as Array<{ id: number; sigl: string }>;
    structureId = Object.fromEntries(structureRows.map((row) => [row.sigl, row.id]));
    allReformes = (await central.get('reformes')).json().data;
    const created = await saisie.post('reformes', reforme);
    expect(created.statusCode).toBe(201);
    ownReformeId = created.json().data.id;
  });
  afterAll(() => t.close());

  describe('recording (POST suivi-results)', () => {
    let resultId: number;
    beforeAll(async () => {
      resultId = await newResult();
    });

    it('records a rate, a value and a date (201 "Donnée de suivi enregistrée avec succès")', async () => {
      const response = await record(saisie, { result_id: resultId, taux_realisat: 12.5, valeur_realise: '40', date: '2026-03-15' });
      expect(response.statusCode).toBe(201);
      const body = response.json();
      expect(body).toMatchObject({ message: MESSAGES.created, data: { id: expect.any(Number), result_id: resultId, date: '2026-03-15' } });
      expect(Number(body.data.taux_realisat)).toBe(12.5);
      expect(Number(body.data.valeur_realise)).toBe(40);
      expect((await recordsOf(resultId)).map((row) => row.id)).toEqual([body.data.id]);
    });

    it('refuses a negative rate and a negative value (422 with both messages) and records nothing', async () => {
      const response = await record(saisie, { result_id: resultId, taux_realisat: -5, valeur_realise: '-0,5', date: '2026-04-01' });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: MESSAGES.invalid,
        errorsList: { taux_realisat: [MESSAGES.rate], valeur_realise: [MESSAGES.value] },
      });
      const text = await record(saisie, { result_id: resultId, taux_realisat: 'beaucoup', valeur_realise: 3, date: '2026-04-01' });
      expect(text.statusCode).toBe(422);
      expect(text.json().errorsList).toEqual({ taux_realisat: [MESSAGES.rate] });
      expect(await recordsOf(resultId)).toHaveLength(1);
    });

    it('asks for a result when none is selected (422 "Veuillez sélectionner un résultat")', async () => {
      for (const result_id of [undefined, '', 0]) {
        const response = await record(saisie, { result_id, taux_realisat: 10, valeur_realise: 10, date: '2026-04-01' });
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({ message: MESSAGES.invalid, errorsList: { result_id: [MESSAGES.resultRequired] } });
      }
    });

    it('refuses a date earlier than the last record (422 "On ne peut avoir une date antérieur au dernier enregistrement!")', async () => {
      const response = await record(saisie, { result_id: resultId, taux_realisat: 20, valeur_realise: 50, date: '2026-03-14' });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ message: MESSAGES.dateBeforeLast, errorsList: { date: [MESSAGES.dateBeforeLast] } });
      expect(await recordsOf(resultId)).toHaveLength(1);
    });

    it('accepts a record on the same day as the last one, then a later one, listed in date order', async () => {
      const sameDay = await record(saisie, { result_id: resultId, taux_realisat: 15, valeur_realise: 45, date: '2026-03-15' });
      expect(sameDay.statusCode).toBe(201);
      expect(sameDay.json().message).toBe(MESSAGES.created);
      const later = await record(validation, { result_id: resultId, taux_realisat: 30, valeur_realise: 60, date: '2026-09-30' });
      expect(later.statusCode).toBe(201);
      const rows = await recordsOf(resultId);
      expect(rows.map((row) => row.date)).toEqual(['2026-03-15', '2026-03-15', '2026-09-30']);
      expect(rows.map((row) => Number(row.valeur_realise))).toEqual([40, 45, 60]);
      const refused = await record(saisie, { result_id: resultId, taux_realisat: 31, valeur_realise: 61, date: '2026-09-29' });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().message).toBe(MESSAGES.dateBeforeLast);
    });

    it("answers 404 for a result of a reform outside the caller's structure (saisie of MS, reform of DGB) and records nothing", async () => {
      const foreign = await resultOfStructure('DGB');
      const before = foreign.suivi_results.length;
      const response = await record(saisie, { result_id: foreign.id, taux_realisat: 10, valeur_realise: 10, date: '2099-01-01' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: MESSAGES.notFound });
      const [after] = await nested(central, `?reforme_id=${allReformes.find((row) => row.structure_id === structureId.DGB)?.id}`);
      expect(
        after.objectifs.flatMap((objectif) => objectif.results).find((result) => result.id === foreign.id)?.suivi_results,
      ).toHaveLength(before);
    });

    it('refuses a value too large for the database with a French message (422), never a 500', async () => {
      const response = await record(saisie, {
        result_id: resultId,
        taux_realisat: 10,
        valeur_realise: '1000000000000000',
        date: '2026-12-31',
      });
      expect(response.statusCode).toBe(422);
      // The schema knows the column's range (NUMBER_LIMITS): the message goes under the field (issue 14).
      expect(response.json()).toMatchObject({
        message: MESSAGES.invalid,
        errorsList: { valeur_realise: ['Ce nombre doit être inférieur à 100\u202f000\u202f000\u202f000\u202f000'] },
      });
      expect(await recordsOf(resultId)).toHaveLength(3);
    });

    it('answers 404 for a result that does not exist', async () => {
      const response = await record(saisie, { result_id: 999_999, taux_realisat: 10, valeur_realise: 10, date: '2026-01-01' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: MESSAGES.notFound });
    });

    it('is refused to roles that only read follow-up data (publication, saisie central: 403)', async () => {
      for (const caller of [publication, central]) {
        const response = await record(caller, { result_id: resultId, taux_realisat: 50, valeur_realise: 80, date: '2026-12-31' });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ message: MESSAGES.forbidden });
      }
    });

    it('requires a signed-in user (401)', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/suivi-results',
        payload: { result_id: resultId, taux_realisat: 1, valeur_realise: 1, date: '2026-12-31' },
      });
      expect(response.statusCode).toBe(401);
    });
  });

  describe('listing the records of a result (GET suivi-results?result_id)', () => {
    it('lists them in date order for a result in scope', async () => {
      const resultId = await newResult('Nombre de dossiers traités');
      await record(saisie, { result_id: resultId, taux_realisat: 10, valeur_realise: 100, date: '2026-02-01' });
      await record(saisie, { result_id: resultId, taux_realisat: 20, valeur_realise: 200, date: '2026-05-01' });
      const response = await validation.get(`suivi-results?result_id=${resultId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ isPaginate: false });
      const rows = response.json().data as Suivi[];
      expect(rows.map((row) => [row.result_id, row.date, Number(row.taux_realisat)])).toEqual([
        [resultId, '2026-02-01', 10],
        [resultId, '2026-05-01', 20],
      ]);
    });

    it('answers 404 for a result of another structure and 422 without result_id', async () => {
      const foreign = await resultOfStructure('MEN');
      const outOfScope = await saisie.get(`suivi-results?result_id=${foreign.id}`);
      expect(outOfScope.statusCode).toBe(404);
      expect(outOfScope.json()).toMatchObject({ message: MESSAGES.notFound });
      expect((await publication.get(`suivi-results?result_id=${foreign.id}`)).statusCode).toBe(200);
      const foreignRecord = foreign.suivi_results[0];
      if (foreignRecord) {
        const one = await saisie.get(`suivi-results/${foreignRecord.id}`);
        expect(one.statusCode).toBe(404);
        expect(one.json()).toMatchObject({ message: MESSAGES.notFound });
        expect((await publication.get(`suivi-results/${foreignRecord.id}`)).json()).toMatchObject({
          data: { id: foreignRecord.id },
        });
      }
      const missing = await saisie.get('suivi-results');
      expect(missing.statusCode).toBe(422);
      expect(missing.json().message).toBe(MESSAGES.invalid);
    });
  });

  describe('removing a record (DELETE suivi-results/{id}, "Retirer")', () => {
    let recordId: number;
    let resultId: number;
    beforeAll(async () => {
      resultId = await newResult('Taux de satisfaction');
      recordId = (await record(saisie, { result_id: resultId, taux_realisat: 5, valeur_realise: 5, date: '2026-01-31' })).json().data.id;
    });

    it('is refused to saisie, publication and saisie central (403) and keeps the record', async () => {
      for (const caller of [saisie, publication, central]) {
        const response = await caller.delete(`suivi-results/${recordId}`);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ message: MESSAGES.forbidden });
      }
      expect((await recordsOf(resultId)).map((row) => row.id)).toEqual([recordId]);
    });

    it('lets validation of the same structure remove it', async () => {
      const response = await validation.delete(`suivi-results/${recordId}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: MESSAGES.deleted });
      expect(await recordsOf(resultId)).toEqual([]);
      const again = await validation.delete(`suivi-results/${recordId}`);
      expect(again.statusCode).toBe(404);
      expect(again.json()).toMatchObject({ message: MESSAGES.notFound });
    });

    it('answers 404 to validation for a record of another structure', async () => {
      const foreign = await resultOfStructure('DGB');
      const foreignRecord = foreign.suivi_results[0] ?? (await resultOfStructure('MEN')).suivi_results[0];
      expect(foreignRecord).toBeDefined();
      const response = await validation.delete(`suivi-results/${foreignRecord.id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: MESSAGES.notFound });
    });
  });

  describe('nested follow-up data (GET reformes/users/get-suivi-result)', () => {
    it('lists the reforms in scope with their objectives, results and records nested', async () => {
      const response = await saisie.get('reformes/users/get-suivi-result');
      expect(response.statusCode).toBe(200);
      const rows = response.json().data as NestedReforme[];
      const expected = allReformes.filter((row) => row.structure_id === structureId.MS && row.is_active).map((row) => row.id);
      expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual([...expected, ownReformeId].sort((a, b) => a - b));
      const withRecords = rows.find((row) =>
        row.objectifs.some((objectif) => objectif.results.some((result) => result.suivi_results.length)),
      );
      expect(withRecords).toBeDefined();
      for (const row of rows) {
        for (const objectif of row.objectifs) {
          expect(objectif.reforme_id).toBe(row.id);
          for (const result of objectif.results) {
            expect(result.objectif_id).toBe(objectif.id);
            for (const suivi of result.suivi_results) expect(suivi.result_id).toBe(result.id);
          }
        }
      }
    });

    it('shows every structure to publication and saisie central', async () => {
      const active = allReformes.filter((row) => row.is_active).length;
      expect(await nested(publication)).toHaveLength(active + 1);
      expect(await nested(central)).toHaveLength(active + 1);
    });

    it('narrows to one reform with ?reforme_id, and to nothing for a reform out of scope', async () => {
      const only = await nested(saisie, `?reforme_id=${ownReformeId}`);
      expect(only.map((row) => row.id)).toEqual([ownReformeId]);
      expect(only[0].libref).toBe(reforme.libref);
      expect(only[0].objectifs.length).toBeGreaterThan(0);
      const foreign = allReformes.find((row) => row.structure_id === structureId.DGB);
      expect(await nested(saisie, `?reforme_id=${foreign?.id}`)).toEqual([]);
      expect((await saisie.get('reformes/users/get-suivi-result?reforme_id=abc')).statusCode).toBe(422);
    });

    it('leaves out a deactivated reform', async () => {
      // Saisie central changes reforms at its own stage, publication (3).
      const target = allReformes.find((row) => row.structure_id === structureId.MS && row.is_active && row.stage === 3);
      if (!target) throw new Error('no active MS reform');
      expect((await central.get(`reformes/${target.id}/state/0`)).statusCode).toBe(200);
      expect((await nested(saisie)).map((row) => row.id)).not.toContain(target.id);
      expect((await central.get(`reformes/${target.id}/state/1`)).statusCode).toBe(200);
      expect((await nested(saisie)).map((row) => row.id)).toContain(target.id);
    });
  });

  describe('validating a result end to end (saisie records, publication validates)', () => {
    it('validates only once a record exists, then shows status 1 in the follow-up data', async () => {
      const resultId = await newResult('Guichets ouverts');
      const early = await publication.put(`resultats/${resultId}`, { status: 1 });
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ message: MESSAGES.needsFollowUp });

      expect((await record(saisie, { result_id: resultId, taux_realisat: 60, valeur_realise: 6, date: '2026-06-30' })).statusCode).toBe(
        201,
      );
      const bySaisie = await saisie.put(`resultats/${resultId}`, { status: 1 });
      expect(bySaisie.statusCode).toBe(403);
      expect(bySaisie.json()).toMatchObject({ message: MESSAGES.forbidden });

      const validated = await publication.put(`resultats/${resultId}`, { status: 1 });
      expect(validated.statusCode).toBe(200);
      expect(validated.json()).toMatchObject({ message: MESSAGES.validated, data: { id: resultId, status: 1 } });

      const again = await publication.put(`resultats/${resultId}`, { status: 1 });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ message: MESSAGES.alreadyValidated });

      const [seen] = await nested(saisie, `?reforme_id=${ownReformeId}`);
      const result = seen.objectifs.flatMap((objectif) => objectif.results).find((row) => row.id === resultId);
      expect(result).toMatchObject({ status: 1, suivi_results: [{ date: '2026-06-30' }] });
    });
  });
});
