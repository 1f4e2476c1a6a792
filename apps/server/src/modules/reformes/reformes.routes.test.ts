import fs from 'node:fs';
import path from 'node:path';
import { REFORME_CHANGE_MESSAGES } from '@reformes/domain';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectifs, permissions, reformes, resultats, rolePermissions, roles, suiviResults } from '../../db/schema/index.ts';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

interface Row {
  id: number;
  libref: string;
  stage: number;
  isPublished: boolean;
  structure_id: number;
  nature_id: number;
  couverture_id: number;
  typeref: string;
}

const valid = {
  libref: 'Réforme de la paie des agents',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Payer les agents à temps',
  popul_cible: 'Agents publics',
  couverture_id: 1,
  struct_impl: 'Direction de la solde, trésor',
  date_debut: '2026-01-15',
  date_fin: '2026-12-31',
};

const REQUIRED_MESSAGES: Record<keyof typeof valid, string> = {
  libref: 'Le Libellé de la réforme est requis',
  typeref: 'La portée de la réforme est requise',
  nature_id: 'La nature est requise',
  objectif_glob: "L'objectif est requis",
  popul_cible: 'La population est requise',
  couverture_id: 'La couverture est requise',
  struct_impl: 'Les structures impliquées sont requises',
  date_debut: 'La date de début est requise',
  date_fin: 'La date de fin est requise',
};

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

describe('reforms', () => {
  let t: TestApp;
  let saisie: Caller;
  let validation: Caller;
  let publication: Caller;
  let central: Caller;
  let admin: Caller;
  let saisieId: number;
  let structureId: Record<string, number>;
  let demo: Row[];

  const idsOf = (rows: Array<{ id: number }>) => rows.map((row) => row.id).sort((a, b) => a - b);
  const demoIds = (keep: (row: Row) => boolean) => idsOf(demo.filter(keep));
  const firstDemo = (keep: (row: Row) => boolean) => {
    const row = demo.find(keep);
    if (!row) throw new Error('no such demo reform');
    return row;
  };
  const countReformes = async () => (await t.db.select({ id: reformes.id }).from(reformes)).length;

  beforeAll(async () => {
    t = await createTestApp();
    saisie = await t.as('saisie');
    saisieId = saisie.session.user.id;
    validation = await t.as('validation');
    publication = await t.as('publication');
    central = await t.as('saisie central');
    admin = await t.as('admin');
    const structureRows = (await admin.get('structures')).json().data as Array<{ id: number; sigl: string }>;
    structureId = Object.fromEntries(structureRows.map((row) => [row.sigl, row.id]));
    demo = (await central.get('reformes')).json().data;
  });
  afterAll(() => t.close());

  describe('creation', () => {
    it('creates a reform at stage 1 in the creator structure with the period text built by the server (201)', async () => {
      const response = await saisie.post('reformes', {
        ...valid,
        periodexe: 'ignoré',
        montant_prevu: '1 234,50',
        etat_mor: 'en_cours',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({
        message: 'Réforme enregistrée avec succès',
        data: {
          libref: valid.libref,
          periodexe: 'Du 15/01/2026 au 31/12/2026',
          stage: 1,
          isPublished: false,
          structure_id: structureId.MS,
          structure: { sigl: 'MS' },
          created_by: saisieId,
          montant_prevu: expect.stringMatching(/^1234\.50*$/),
          objectifs: [],
          files: [],
          affectation: null,
        },
      });
      expect(response.json().data.history).toMatchObject([{ event: 'creation', to_stage: 1, user: 'Awa Dubois' }]);
    });

    it.each(Object.entries(REQUIRED_MESSAGES))('refuses a reform without %s (422) with its French message', async (field, message) => {
      const before = await countReformes();
      const payload: Record<string, unknown> = { ...valid };
      delete payload[field];
      const response = await saisie.post('reformes', payload);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ message: 'Les données envoyées sont invalides.' });
      expect(response.json().errorsList[field]).toEqual([message]);
      const blank = await saisie.post('reformes', { ...valid, [field]: '' });
      expect(blank.statusCode).toBe(422);
      expect(blank.json().errorsList[field]).toEqual([message]);
      expect(await countReformes()).toBe(before);
    });

    it('refuses a start date after the end date (422) and saves nothing', async () => {
      const before = await countReformes();
      const response = await saisie.post('reformes', { ...valid, date_debut: '2027-01-01', date_fin: '2026-12-31' });
      expect(response.statusCode).toBe(422);
      expect(response.json().errorsList).toEqual({ date_fin: ['La date début ne peut être antérieure à la date fin'] });
      expect(await countReformes()).toBe(before);
    });

    it('accepts French amounts and refuses negative ones (422)', async () => {
      const accepted = await saisie.post('reformes', {
        ...valid,
        libref: 'Montants',
        montant_prevu: '1 234,50',
        montant_trealise: '12,5',
      });
      expect(accepted.statusCode).toBe(201);
      expect(Number(accepted.json().data.montant_prevu)).toBe(1234.5);
      expect(Number(accepted.json().data.montant_trealise)).toBe(12.5);

      const negative = await saisie.post('reformes', { ...valid, montant_prevu: '-10' });
      expect(negative.statusCode).toBe(422);
      expect(negative.json().errorsList).toEqual({ montant_prevu: ['Le montant doit être un nombre positif ou nul'] });
      const text = await saisie.post('reformes', { ...valid, montant_trealise: 'beaucoup' });
      expect(text.json().errorsList).toEqual({ montant_trealise: ['Le montant doit être un nombre positif ou nul'] });
    });

    it('requires saisie central to give the structure (422 "La structure est requise")', async () => {
      const response = await central.post('reformes', valid);
      expect(response.statusCode).toBe(422);
      expect(response.json().errorsList).toEqual({ structure_id: ['La structure est requise'] });
    });

    it('puts a reform of saisie central in the chosen structure, at stage 3', async () => {
      const response = await central.post('reformes', { ...valid, libref: 'Réforme centrale', structure_id: structureId.MEN });
      expect(response.statusCode).toBe(201);
      expect(response.json().data).toMatchObject({
        structure_id: structureId.MEN,
        structure: { sigl: 'MEN' },
        stage: 3,
        isPublished: false,
      });
    });

    it('ignores a structure_id sent by a role other than saisie central', async () => {
      const response = await saisie.post('reformes', { ...valid, libref: 'Structure forcée', structure_id: structureId.DGB });
      expect(response.statusCode).toBe(201);
      expect(response.json().data.structure_id).toBe(structureId.MS);
    });
  });

  describe('lists', () => {
    it('lists page by page with the pagination envelope', async () => {
      const whole = await central.get('reformes');
      expect(whole.json().isPaginate).toBe(false);
      const total = whole.json().data.length;
      const response = await central.get('reformes?per_page=10&page=2');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.isPaginate).toBe(true);
      expect(body.data).toMatchObject({ current_page: 2, per_page: 10, total, last_page: Math.ceil(total / 10) });
      expect(body.data.data).toHaveLength(10);
      expect(body.data.data.map((row: Row) => row.id)).toEqual(
        whole
          .json()
          .data.slice(10, 20)
          .map((row: Row) => row.id),
      );
    });

    it('filters by structure, nature, coverage and reform type', async () => {
      const rows = async (query: string) => idsOf((await publication.get(`reformes?${query}`)).json().data);
      const all = (await publication.get('reformes')).json().data as Row[];
      expect(await rows(`structure_id=${structureId.DGB}`)).toEqual(idsOf(all.filter((row) => row.structure_id === structureId.DGB)));
      expect(await rows('nature_id=2')).toEqual(idsOf(all.filter((row) => row.nature_id === 2)));
      expect(await rows('couverture_id=3')).toEqual(idsOf(all.filter((row) => row.couverture_id === 3)));
      expect(await rows('typeref=TRANSVERSALE')).toEqual(idsOf(all.filter((row) => row.typeref === 'TRANSVERSALE')));
      const combined = await rows(`typeref=SECTORIELLE&structure_id=${structureId.MS}&nature_id=1`);
      expect(combined).toEqual(
        idsOf(all.filter((row) => row.typeref === 'SECTORIELLE' && row.structure_id === structureId.MS && row.nature_id === 1)),
      );
      expect(combined.length).toBeGreaterThan(0);
      expect((await rows(`structure_id=${structureId.DGB}`)).length).toBeGreaterThan(0);
    });

    it('searches without regard to case or accents, on both search paths', async () => {
      const expected = demoIds((row) => row.libref.startsWith('Dématérialisation des procédures'));
      expect(expected.length).toBe(3);
      for (const url of ['reformes-search', 'reformes/-search']) {
        const response = await saisie.post(url, { search: 'DEMATERIALISATION' });
        expect(response.statusCode).toBe(200);
        expect(idsOf(response.json().data)).toEqual(expected);
      }
      const lower = await saisie.post('reformes-search', { search: 'dématérialisation des' });
      expect(idsOf(lower.json().data)).toEqual(expected);
    });

    it('lists "Mes enregistrements": the reforms the caller created', async () => {
      const response = await validation.get('reformes/users/get-my-list');
      expect(response.json().data).toEqual([]);
      const mine = await saisie.get('reformes/users/get-my-list?per_page=5&page=1');
      expect(mine.json().data.data.every((row: { created_by: number }) => row.created_by === saisieId)).toBe(true);
      expect(mine.json().data.total).toBeGreaterThanOrEqual(demo.filter((row) => row.structure_id === structureId.MS).length);
    });

    it('lists at each role its own stage, in its scope, unpublished (get-by-role)', async () => {
      const byRole = async (caller: Caller) => idsOf((await caller.get('reformes/users/get-by-role')).json().data);
      const now = (await central.get('reformes')).json().data as Row[];
      const expected = (keep: (row: Row) => boolean) => idsOf(now.filter((row) => !row.isPublished && keep(row)));
      expect(await byRole(saisie)).toEqual(expected((row) => row.stage === 1 && row.structure_id === structureId.MS));
      expect(await byRole(validation)).toEqual(expected((row) => row.stage === 2 && row.structure_id === structureId.MS));
      expect(await byRole(publication)).toEqual(expected((row) => row.stage === 3));
      // saisie central's reforms start at publication: that is where its list looks.
      expect(await byRole(central)).toEqual(expected((row) => row.stage === 3));
      expect(await byRole(admin)).toEqual([]);
      const paged = (await publication.get('reformes/users/get-by-role?per_page=2&page=1')).json();
      expect(paged).toMatchObject({
        isPaginate: true,
        data: { current_page: 1, per_page: 2, total: expected((row) => row.stage === 3).length },
      });
    });

    it('lets admin list reforms but not open one (403)', async () => {
      const list = await admin.get('reformes');
      expect(list.statusCode).toBe(200);
      expect(list.json().data.length).toBeGreaterThanOrEqual(demo.length);
      const show = await admin.get(`reformes/${demo[0].id}`);
      expect(show.statusCode).toBe(403);
      expect(show.json()).toMatchObject({ message: "Vous n'avez pas les droits nécessaires pour effectuer cette action." });
      expect((await admin.post('reformes', valid)).statusCode).toBe(403);
    });
  });

  describe('detail', () => {
    it('shows objectives with their results and follow-up records, files and history', async () => {
      // A demo reform at stage 2: its history holds the creation and one transmission.
      const reforme = firstDemo((row) => row.stage === 2 && row.structure_id === structureId.MS);
      const response = await saisie.get(`reformes/${reforme.id}`);
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(response.json().message).toBe('Élément récupéré avec succès');
      expect(data).toMatchObject({
        id: reforme.id,
        libref: reforme.libref,
        files: [],
        affectation: null,
        nature: { libnature: expect.any(String) },
      });
      expect(data.objectifs.length).toBeGreaterThan(0);
      for (const objectif of data.objectifs) {
        expect(objectif.reforme).toEqual({ id: reforme.id, libref: reforme.libref });
        expect(objectif.results).toHaveLength(2);
      }
      const results = data.objectifs.flatMap((objectif: { results: unknown[] }) => objectif.results);
      expect(results.some((result: { suivi_results: unknown[] }) => result.suivi_results.length === 3)).toBe(true);
      expect(results[0]).toMatchObject({
        libresult: expect.any(String),
        indicateur: expect.any(String),
        status: 0,
        suivi_results: expect.any(Array),
      });
      expect(data.history.map((row: { event: string }) => row.event)).toEqual(['creation', 'transmission']);
      expect(data.history[1]).toMatchObject({ sens: -1, from_stage: 1, to_stage: 2, user: 'Awa Dubois' });
    });
  });

  describe('scope', () => {
    it('hides the reforms of other structures from saisie: never listed, 404 on show, update and delete', async () => {
      const others = demo.filter((row) => row.structure_id !== structureId.MS);
      expect(others.length).toBeGreaterThan(0);
      const listed = (await saisie.get('reformes')).json().data as Row[];
      expect(listed.every((row) => row.structure_id === structureId.MS)).toBe(true);
      const otherIds = new Set(others.map((row) => row.id));
      expect(listed.some((row) => otherIds.has(row.id))).toBe(false);
      const foreignSearch = await saisie.post('reformes-search', { search: 'simplification' });
      expect(foreignSearch.json().data).toEqual([]);
      expect((await central.post('reformes-search', { search: 'simplification' })).json().data).toHaveLength(3);

      for (const sigl of ['DGB', 'MEN']) {
        const foreign = firstDemo((row) => row.structure_id === structureId[sigl] && !row.isPublished);
        const show = await saisie.get(`reformes/${foreign.id}`);
        expect(show.statusCode).toBe(404);
        expect(show.json()).toMatchObject({ message: "L'élément demandé est introuvable." });
        expect((await saisie.put(`reformes/${foreign.id}`, valid)).statusCode).toBe(404);
        expect((await saisie.delete(`reformes/${foreign.id}`)).statusCode).toBe(404);
        expect((await central.get(`reformes/${foreign.id}`)).statusCode).toBe(200);
      }
      expect((await validation.get(`reformes/${firstDemo((row) => row.structure_id === structureId.DGB).id}`)).statusCode).toBe(404);
    });

    it('answers 403 to saisie on the state route, which its role lacks, and 404 out of scope once granted', async () => {
      const foreign = firstDemo((row) => row.structure_id === structureId.DGB && !row.isPublished);
      const own = firstDemo((row) => row.structure_id === structureId.MS && !row.isPublished);
      expect((await saisie.get(`reformes/${foreign.id}/state/0`)).statusCode).toBe(403);

      const [right] = await t.db.select({ id: permissions.id }).from(permissions).where(eq(permissions.name, 'reformes.status'));
      const [role] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'saisie'));
      const granted = await admin.post('profiles', { id: role.id, permissions: [right.id] });
      expect(granted.statusCode).toBe(200);
      try {
        const outside = await saisie.get(`reformes/${foreign.id}/state/0`);
        expect(outside.statusCode).toBe(404);
        expect(outside.json()).toMatchObject({ message: "L'élément demandé est introuvable." });
        const inside = await saisie.get(`reformes/${own.id}/state/0`);
        expect(inside.json()).toMatchObject({ message: 'Désactivation effectuée avec succès', data: { is_active: false } });
        expect((await saisie.get(`reformes/${own.id}/state/1`)).json().data.is_active).toBe(true);
      } finally {
        await t.db.delete(rolePermissions).where(and(eq(rolePermissions.role_id, role.id), eq(rolePermissions.permission_id, right.id)));
      }
    });
  });

  describe('update', () => {
    it('updates a reform and rebuilds its period text', async () => {
      const created = (await saisie.post('reformes', { ...valid, libref: 'À modifier' })).json().data;
      const response = await saisie.put(`reformes/${created.id}`, {
        ...valid,
        libref: 'Modifiée',
        date_debut: '2026-03-01',
        date_fin: '2027-02-28',
        montant_prevu: '2 000',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        message: 'Réforme modifiée avec succès',
        data: { id: created.id, libref: 'Modifiée', periodexe: 'Du 01/03/2026 au 28/02/2027', stage: 1, structure_id: structureId.MS },
      });
      expect(Number(response.json().data.montant_prevu)).toBe(2000);
    });

    it('refuses an update whose start date is after its end date (422) and keeps the reform unchanged', async () => {
      const created = (await saisie.post('reformes', { ...valid, libref: 'Dates intactes' })).json().data;
      const response = await saisie.put(`reformes/${created.id}`, {
        ...valid,
        libref: 'Dates inversées',
        date_debut: '2027-06-01',
        date_fin: '2027-05-31',
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().errorsList).toEqual({ date_fin: ['La date début ne peut être antérieure à la date fin'] });
      const after = (await saisie.get(`reformes/${created.id}`)).json().data;
      expect(after).toMatchObject({
        libref: 'Dates intactes',
        date_debut: '2026-01-15',
        date_fin: '2026-12-31',
        periodexe: 'Du 15/01/2026 au 31/12/2026',
      });
    });

    it('keeps published reforms read-only for saisie and validation (409) but not for saisie central', async () => {
      const published = firstDemo((row) => row.isPublished && row.structure_id === structureId.MS);
      const message = { message: 'Une réforme publiée ne peut plus être modifiée.' };
      for (const caller of [saisie, validation]) {
        const update = await caller.put(`reformes/${published.id}`, { ...valid, libref: 'Interdit' });
        expect(update.statusCode).toBe(409);
        expect(update.json()).toMatchObject(message);
        const remove = await caller.delete(`reformes/${published.id}`);
        expect(remove.statusCode).toBe(409);
        expect(remove.json()).toMatchObject(message);
        expect((await caller.get(`reformes/${published.id}`)).statusCode).toBe(200);
      }
      expect((await saisie.get(`reformes/${published.id}`)).json().data.libref).toBe(published.libref);

      const byCentral = await central.put(`reformes/${published.id}`, {
        ...valid,
        libref: 'Corrigée par la saisie centrale',
        structure_id: structureId.MS,
      });
      expect(byCentral.statusCode).toBe(200);
      expect(byCentral.json().data).toMatchObject({
        libref: 'Corrigée par la saisie centrale',
        isPublished: true,
        structure_id: structureId.MS,
      });
    });
  });

  /** An objective with one expected result on the reform, made by saisie. */
  async function objectifWithResult(reformeId: number) {
    const objectif = (await saisie.post('objectifs', { reforme_id: reformeId, libobjectif: 'Objectif éphémère' })).json().data;
    const resultat = (
      await saisie.post('resultats', {
        objectif_id: objectif.id,
        libresult: 'Résultat éphémère',
        indicateur: 'Taux',
        valeur_cible: '100',
        valeurref: '0',
      })
    ).json().data;
    return { objectif, resultat };
  }

  describe('delete', () => {
    it('deletes a reform with its objectives, results and stored PDF', async () => {
      const upload = new FormData();
      upload.append('name_file', 'Note de cadrage');
      upload.append('file', new Blob([PDF], { type: 'application/pdf' }), 'cadrage.pdf');
      const stored = await t.app.inject({ method: 'POST', url: '/api/v1/files', headers: saisie.headers, payload: upload });
      expect(stored.statusCode).toBe(201);
      const created = (await saisie.post('reformes', { ...valid, libref: 'À supprimer', files: [stored.json().data.id] })).json().data;
      expect(created.files).toMatchObject([{ id: stored.json().data.id, name_file: 'Note de cadrage' }]);
      const { objectif, resultat } = await objectifWithResult(created.id);
      const folder = path.join(t.config.storageDir, 'reformes');
      const filesBefore = fs.readdirSync(folder);
      expect(filesBefore.length).toBeGreaterThan(0);

      const response = await saisie.delete(`reformes/${created.id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: 'Suppression effectuée avec succès' });
      expect((await saisie.get(`reformes/${created.id}`)).statusCode).toBe(404);
      expect(await t.db.select().from(objectifs).where(eq(objectifs.reforme_id, created.id))).toEqual([]);
      expect(await t.db.select().from(resultats).where(eq(resultats.objectif_id, objectif.id))).toEqual([]);
      expect(await t.db.select().from(resultats).where(eq(resultats.id, resultat.id))).toEqual([]);
      expect(fs.readdirSync(folder)).toHaveLength(filesBefore.length - 1);
      expect(
        (await t.app.inject({ method: 'GET', url: `/api/v1/files/${stored.json().data.id}`, headers: saisie.headers })).statusCode,
      ).toBe(404);
    });

    it('refuses to delete a reform that holds follow-up records, and keeps everything (409)', async () => {
      const created = (await saisie.post('reformes', { ...valid, libref: 'Suivie' })).json().data;
      const { resultat } = await objectifWithResult(created.id);
      const suivi = await saisie.post('suivi-results', {
        result_id: resultat.id,
        taux_realisat: 10,
        valeur_realise: 10,
        date: '2026-02-01',
      });
      expect(suivi.statusCode).toBe(201);

      const response = await saisie.delete(`reformes/${created.id}`);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ message: REFORME_CHANGE_MESSAGES.followUpDelete });
      expect((await saisie.get(`reformes/${created.id}`)).statusCode).toBe(200);
      expect(
        await t.db
          .select()
          .from(suiviResults)
          .where(inArray(suiviResults.result_id, [resultat.id])),
      ).toHaveLength(1);
    });

    it('answers 404 to a second deletion', async () => {
      const created = (await saisie.post('reformes', { ...valid, libref: 'Deux fois' })).json().data;
      expect((await saisie.delete(`reformes/${created.id}`)).statusCode).toBe(200);
      expect((await saisie.delete(`reformes/${created.id}`)).statusCode).toBe(404);
    });
  });
});
