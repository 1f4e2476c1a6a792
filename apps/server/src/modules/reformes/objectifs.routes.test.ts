import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

interface Row {
  id: number;
  libref: string;
  stage: number;
  isPublished: boolean;
  structure_id: number;
}
interface Resultat {
  id: number;
  status: number;
  suivi_results: unknown[];
}

const reforme = {
  libref: 'Réforme des objectifs',
  typeref: 'SECTORIELLE',
  nature_id: 2,
  objectif_glob: 'Mesurer les progrès',
  popul_cible: 'Agents',
  couverture_id: 2,
  struct_impl: 'Directions techniques',
  date_debut: '2026-01-01',
  date_fin: '2027-12-31',
};

const RESULT_MESSAGES = {
  objectif_id: "Le Libellé de l'objectif est requis",
  libresult: 'Le Libellé du résultat est requis',
  indicateur: "L'indicateur est requis",
  valeur_cible: 'La valeur cible est requise',
  valeurref: 'La valeur référence est requise est requise',
};

describe('objectives and expected results', () => {
  let t: TestApp;
  let saisie: Caller;
  let validation: Caller;
  let publication: Caller;
  let central: Caller;
  let structureId: Record<string, number>;
  let demo: Row[];
  let own: { id: number; libref: string };

  const firstDemo = (keep: (row: Row) => boolean) => {
    const row = demo.find(keep);
    if (!row) throw new Error('no such demo reform');
    return row;
  };
  const createObjectif = async (reformeId: number, libobjectif = 'Réduire les délais') =>
    (await saisie.post('objectifs', { reforme_id: reformeId, libobjectif })).json().data as { id: number };
  const resultPayload = (objectifId: number) => ({
    objectif_id: objectifId,
    libresult: 'Délai moyen réduit',
    indicateur: 'Délai (jours)',
    valeur_cible: '15',
    valeurref: '45',
  });

  beforeAll(async () => {
    t = await createTestApp();
    saisie = await t.as('saisie');
    validation = await t.as('validation');
    publication = await t.as('publication');
    central = await t.as('saisie central');
    const structureRows = (await central.get('structures')).json().data as Array<{ id: number; sigl: string }>;
    structureId = Object.fromEntries(structureRows.map((row) => [row.sigl, row.id]));
    demo = (await central.get('reformes')).json().data;
    own = (await saisie.post('reformes', reforme)).json().data;
  });
  afterAll(() => t.close());

  describe('objectives', () => {
    it('creates, shows, updates and deletes an objective', async () => {
      const created = await saisie.post('objectifs', { reforme_id: own.id, libobjectif: 'Réduire les délais' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        message: 'Objectif enregistré avec succès',
        data: { libobjectif: 'Réduire les délais', reforme_id: own.id, reforme: { id: own.id, libref: own.libref }, results: [] },
      });
      const id = created.json().data.id;
      expect((await validation.get(`objectifs/${id}`)).json()).toMatchObject({
        message: 'Élément récupéré avec succès',
        data: { id },
      });

      const updated = await saisie.put(`objectifs/${id}`, { reforme_id: own.id, libobjectif: 'Réduire fortement les délais' });
      expect(updated.json()).toMatchObject({
        message: 'Modification effectuée avec succès',
        data: { libobjectif: 'Réduire fortement les délais' },
      });

      const deleted = await saisie.delete(`objectifs/${id}`);
      expect(deleted.json()).toMatchObject({ message: 'Suppression effectuée avec succès' });
      expect((await saisie.get(`objectifs/${id}`)).statusCode).toBe(404);
    });

    it('refuses an objective without label (422 "Le Libellé de l\'objectif est requis") or reform', async () => {
      const response = await saisie.post('objectifs', { reforme_id: own.id, libobjectif: '  ' });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: 'Les données envoyées sont invalides.',
        errorsList: { libobjectif: ["Le Libellé de l'objectif est requis"] },
      });
      const missing = await saisie.post('objectifs', { reforme_id: own.id });
      expect(missing.json().errorsList).toEqual({ libobjectif: ["Le Libellé de l'objectif est requis"] });
      const noReforme = await saisie.post('objectifs', { libobjectif: 'Orphelin' });
      expect(noReforme.statusCode).toBe(422);
      expect(noReforme.json().errorsList).toEqual({ reforme_id: ['La réforme est requise'] });
      expect((await saisie.post('objectifs', { reforme_id: 999999, libobjectif: 'Inconnue' })).statusCode).toBe(404);
    });

    it("lists a reform's objectives with their results (by-reforme)", async () => {
      const target = firstDemo((row) => row.structure_id === structureId.MS && row.libref.includes('Réorganisation'));
      const response = await saisie.get(`objectifs/by-reforme/${target.id}`);
      expect(response.statusCode).toBe(200);
      const rows = response.json().data as Array<{ id: number; reforme_id: number; libobjectif: string; results: Resultat[] }>;
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.reforme_id === target.id && row.results.length === 2)).toBe(true);
      expect(rows.map((row) => row.id)).toEqual([...rows.map((row) => row.id)].sort((a, b) => a - b));
      expect(rows[0].libobjectif).toMatch(/^Objectif 1 de la réforme/);
    });

    it('lists and searches objectives within the caller scope', async () => {
      const paged = (await saisie.get('objectifs?per_page=5&page=1')).json();
      expect(paged).toMatchObject({ isPaginate: true, data: { current_page: 1, per_page: 5 } });
      const all = (await saisie.get('objectifs')).json().data as Array<{
        id: number;
        libobjectif: string;
        reforme: { id: number };
      }>;
      expect(paged.data.total).toBe(all.length);
      const msIds = new Set([...demo.filter((row) => row.structure_id === structureId.MS).map((row) => row.id), own.id]);
      expect(all.every((row) => msIds.has(row.reforme.id))).toBe(true);
      const everyone = (await central.get('objectifs')).json().data;
      expect(everyone.length).toBeGreaterThan(all.length);

      const found = (await saisie.post('objectifs-search', { search: 'OBJECTIF 2 DE LA REFORME' })).json().data as Array<{
        id: number;
      }>;
      const expected = all.filter((row) => row.libobjectif.startsWith('Objectif 2 de la réforme'));
      expect(expected.length).toBeGreaterThan(0);
      expect(found.map((row) => row.id).sort()).toEqual(expected.map((row) => row.id).sort());
    });

    it("answers 404 for the objectives of another structure's reform", async () => {
      const foreign = firstDemo((row) => row.structure_id === structureId.DGB && !row.isPublished);
      expect((await saisie.get(`objectifs/by-reforme/${foreign.id}`)).statusCode).toBe(404);
      expect((await saisie.post('objectifs', { reforme_id: foreign.id, libobjectif: 'Intrusion' })).statusCode).toBe(404);
      const [objectif] = (await central.get(`objectifs/by-reforme/${foreign.id}`)).json().data as Array<{ id: number }>;
      for (const [method, payload] of [['GET'], ['PUT', { reforme_id: foreign.id, libobjectif: 'Intrusion' }], ['DELETE']] as const) {
        const response = await saisie.send(method, `objectifs/${objectif.id}`, payload);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ message: "L'élément demandé est introuvable." });
      }
      // Nor can an own objective be moved to a reform out of scope.
      const mine = await createObjectif(own.id);
      expect((await saisie.put(`objectifs/${mine.id}`, { reforme_id: foreign.id, libobjectif: 'Déplacé' })).statusCode).toBe(404);
    });

    it('keeps the objectives of a published reform read-only for saisie (409)', async () => {
      const published = firstDemo((row) => row.structure_id === structureId.MS && row.isPublished);
      const response = await saisie.post('objectifs', { reforme_id: published.id, libobjectif: 'Trop tard' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ message: 'Une réforme publiée ne peut plus être modifiée.' });
    });

    it('lets validation read objectives but not write them (403)', async () => {
      const response = await validation.post('objectifs', { reforme_id: own.id, libobjectif: 'Par la validation' });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: "Vous n'avez pas les droits nécessaires pour effectuer cette action." });
    });
  });

  describe('expected results', () => {
    it('creates, shows, updates and deletes a result, accepting objective_id for the objective', async () => {
      const objectif = await createObjectif(own.id);
      const { objectif_id, ...rest } = resultPayload(objectif.id);
      const created = await saisie.post('resultats', { ...rest, objective_id: objectif_id, valeur_cible: '1 500,5' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        message: 'Résultat attendu enregistré avec succès',
        data: { objectif_id: objectif.id, libresult: 'Délai moyen réduit', indicateur: 'Délai (jours)', status: 0, suivi_results: [] },
      });
      const id = created.json().data.id;
      expect(Number(created.json().data.valeur_cible)).toBe(1500.5);
      expect(Number(created.json().data.valeurref)).toBe(45);
      expect((await validation.get(`resultats/${id}`)).json().data).toMatchObject({ id, status: 0 });
      expect((await saisie.get(`objectifs/${objectif.id}`)).json().data.results.map((row: Resultat) => row.id)).toEqual([id]);

      const updated = await saisie.put(`resultats/${id}`, { ...resultPayload(objectif.id), indicateur: 'Délai médian (jours)' });
      expect(updated.statusCode).toBe(200);
      expect(updated.json()).toMatchObject({
        message: 'Modification effectuée avec succès',
        data: { indicateur: 'Délai médian (jours)', status: 0 },
      });

      expect((await saisie.delete(`resultats/${id}`)).json()).toMatchObject({ message: 'Suppression effectuée avec succès' });
      expect((await saisie.get(`resultats/${id}`)).statusCode).toBe(404);
    });

    it.each(Object.entries(RESULT_MESSAGES))('refuses a result without %s (422) with its French message', async (field, message) => {
      const objectif = await createObjectif(own.id);
      const payload: Record<string, unknown> = resultPayload(objectif.id);
      delete payload[field];
      const response = await saisie.post('resultats', payload);
      expect(response.statusCode).toBe(422);
      expect(response.json().message).toBe('Les données envoyées sont invalides.');
      expect(response.json().errorsList).toEqual({ [field]: [message] });
      const blank = await saisie.post('resultats', { ...resultPayload(objectif.id), [field]: '' });
      expect(blank.statusCode).toBe(422);
      expect(blank.json().errorsList).toEqual({ [field]: [message] });
      expect((await saisie.get(`objectifs/${objectif.id}`)).json().data.results).toEqual([]);
    });

    it('refuses an invalid update with the same messages (422)', async () => {
      const objectif = await createObjectif(own.id);
      const id = (await saisie.post('resultats', resultPayload(objectif.id))).json().data.id;
      const response = await saisie.put(`resultats/${id}`, { ...resultPayload(objectif.id), libresult: '', valeurref: null });
      expect(response.statusCode).toBe(422);
      expect(response.json().errorsList).toEqual({
        libresult: ['Le Libellé du résultat est requis'],
        valeurref: ['La valeur référence est requise est requise'],
      });
    });

    it("answers 404 for the results of another structure's reform", async () => {
      const foreign = firstDemo((row) => row.structure_id === structureId.MEN && !row.isPublished);
      const [objectif] = (await central.get(`objectifs/by-reforme/${foreign.id}`)).json().data as Array<{
        id: number;
        results: Resultat[];
      }>;
      const resultId = objectif.results[0].id;
      expect((await saisie.post('resultats', resultPayload(objectif.id))).statusCode).toBe(404);
      for (const [method, payload] of [['GET'], ['PUT', resultPayload(objectif.id)], ['DELETE']] as const) {
        const response = await saisie.send(method, `resultats/${resultId}`, payload);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ message: "L'élément demandé est introuvable." });
      }
      const listed = (await saisie.get('resultats')).json().data as Array<{ id: number }>;
      expect(listed.some((row) => row.id === resultId)).toBe(false);
      expect((await publication.get(`resultats/${resultId}`)).statusCode).toBe(200);
    });
  });

  describe('result validation (PUT resultats/{id} {status: 1})', () => {
    let pendingWithFollowUp: Resultat;
    let withoutFollowUp: Resultat;

    beforeAll(async () => {
      const ms = demo.filter((row) => row.structure_id === structureId.MS && !row.isPublished);
      const results: Resultat[] = [];
      for (const row of ms) {
        for (const objectif of (await saisie.get(`objectifs/by-reforme/${row.id}`)).json().data as Array<{
          results: Resultat[];
        }>) {
          results.push(...objectif.results);
        }
      }
      pendingWithFollowUp = results.find((result) => result.status === 0 && result.suivi_results.length > 0) as Resultat;
      withoutFollowUp = results.find((result) => result.status === 0 && result.suivi_results.length === 0) as Resultat;
      expect(pendingWithFollowUp).toBeDefined();
      expect(withoutFollowUp).toBeDefined();
    });

    it('is reserved to publication (403 for saisie, validation and saisie central)', async () => {
      for (const caller of [saisie, validation, central]) {
        const response = await caller.put(`resultats/${pendingWithFollowUp.id}`, { status: 1 });
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ message: "Vous n'avez pas les droits nécessaires pour effectuer cette action." });
      }
      expect((await saisie.get(`resultats/${pendingWithFollowUp.id}`)).json().data.status).toBe(0);
    });

    it('refuses a result without follow-up record (409)', async () => {
      const response = await publication.put(`resultats/${withoutFollowUp.id}`, { status: 1 });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ message: "Un résultat ne peut être validé qu'après au moins une donnée de suivi." });
      expect((await publication.get(`resultats/${withoutFollowUp.id}`)).json().data.status).toBe(0);
    });

    it('validates a result that has follow-up records, once only (409 the second time)', async () => {
      const response = await publication.put(`resultats/${pendingWithFollowUp.id}`, { status: 1 });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        message: 'Validation de résultat effectuée avec succès',
        data: { id: pendingWithFollowUp.id, status: 1 },
      });
      const again = await publication.put(`resultats/${pendingWithFollowUp.id}`, { status: 1 });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ message: 'Ce résultat est déjà validé.' });
    });

    it('validates a new result once a follow-up record exists', async () => {
      const objectif = await createObjectif(own.id);
      const id = (await saisie.post('resultats', resultPayload(objectif.id))).json().data.id;
      expect((await publication.put(`resultats/${id}`, { status: 1 })).statusCode).toBe(409);
      const suivi = await saisie.post('suivi-results', {
        result_id: id,
        taux_realisat: 30,
        valeur_realise: 35,
        date: '2026-06-30',
      });
      expect(suivi.statusCode).toBe(201);
      const response = await publication.put(`resultats/${id}`, { status: '1' });
      expect(response.json()).toMatchObject({
        message: 'Validation de résultat effectuée avec succès',
        data: { status: 1, suivi_results: [{ date: '2026-06-30' }] },
      });
    });

    it('accepts only status 1 (422)', async () => {
      const response = await publication.put(`resultats/${withoutFollowUp.id}`, { status: 0 });
      expect(response.statusCode).toBe(422);
      expect(response.json().errorsList).toEqual({ status: ['Seule la validation (status 1) est possible'] });
    });

    it('answers 404 for an unknown result', async () => {
      expect((await publication.put('resultats/999999', { status: 1 })).statusCode).toBe(404);
    });
  });
});
