import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affectations } from '../../db/schema/index.ts';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

interface Row {
  id: number;
  libref: string;
  stage: number;
  isPublished: boolean;
  structure_id: number;
}

const reforme = {
  libref: 'Réforme du circuit de validation',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Fluidifier le circuit',
  popul_cible: 'Agents',
  couverture_id: 1,
  struct_impl: 'Secrétariat général',
  date_debut: '2026-04-01',
  date_fin: '2026-10-31',
};

const MESSAGES = {
  forbidden: "Vous n'avez pas les droits nécessaires pour effectuer cette action.",
  notFound: "L'élément demandé est introuvable.",
  wrongRole: 'Votre rôle ne permet pas cette action sur le circuit de la réforme.',
  wrongStage: "La réforme n'est pas à l'étape qui permet cette action.",
  alreadyPublished: 'La réforme est déjà publiée.',
  notPublished: "La réforme n'est pas publiée.",
  publishedLocked: 'Une réforme publiée ne circule plus : arrêtez sa publication avant de la retourner ou de la transmettre.',
};

describe('reform workflow', () => {
  let t: TestApp;
  let saisie: Caller;
  let validation: Caller;
  let publication: Caller;
  let central: Caller;
  let admin: Caller;
  let structureId: Record<string, number>;
  let demo: Row[];

  const transmit = (caller: Caller, id: number) => caller.post('affectations', { reforme_id: id, sens: -1 });
  const sendBack = (caller: Caller, id: number, instruction?: string) =>
    caller.post('affectations', { reforme_id: id, sens: 1, instruction });
  const publish = (caller: Caller, id: number) => caller.get(`reformes/state/publish/${id}`);
  const unpublish = (caller: Caller, id: number) => caller.get(`reformes/state/unpublish/${id}`);
  const detail = async (id: number, caller = central) => (await caller.get(`reformes/${id}`)).json().data;
  const create = async (libref: string, caller = saisie, extra: object = {}) =>
    (await caller.post('reformes', { ...reforme, libref, ...extra })).json().data as Row;
  const byRoleIds = async (caller: Caller) => ((await caller.get('reformes/users/get-by-role')).json().data as Row[]).map((row) => row.id);
  const historyCount = async (id: number) => (await t.db.select().from(affectations).where(eq(affectations.reforme_id, id))).length;
  const firstDemo = (keep: (row: Row) => boolean) => {
    const row = demo.find(keep);
    if (!row) throw new Error('no such demo reform');
    return row;
  };
  /** The mails sent while `action` ran. */
  async function mailsDuring(action: () => Promise<unknown>) {
    const before = t.outbox().length;
    await action();
    return t.outbox().slice(before);
  }
  const recipientOf = (mail: string) => /^To: (.+)$/m.exec(mail)?.[1];
  const expectRefusal = (response: { statusCode: number; json: () => unknown }, status: number, message: string) => {
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ message });
  };

  beforeAll(async () => {
    t = await createTestApp();
    saisie = await t.as('saisie');
    validation = await t.as('validation');
    publication = await t.as('publication');
    central = await t.as('saisie central');
    admin = await t.as('admin');
    const structureRows = (await central.get('structures')).json().data as Array<{ id: number; sigl: string }>;
    structureId = Object.fromEntries(structureRows.map((row) => [row.sigl, row.id]));
    demo = (await central.get('reformes')).json().data;
  });
  afterAll(() => t.close());

  describe('the full path from entry to publication', () => {
    let id: number;
    const label = 'Réforme du circuit complet';

    it('starts a reform of saisie at stage 1, in its "A transmettre" list', async () => {
      const created = await create(label);
      id = created.id;
      expect(created).toMatchObject({ stage: 1, isPublished: false });
      expect(await byRoleIds(saisie)).toContain(id);
      expect(await byRoleIds(validation)).not.toContain(id);
    });

    it('transmits to validation (stage 2) and mails validation of the same structure with a link', async () => {
      let response: Awaited<ReturnType<typeof transmit>> | undefined;
      const mails = await mailsDuring(async () => {
        response = await transmit(saisie, id);
      });
      expect(response?.statusCode).toBe(200);
      expect(response?.json()).toMatchObject({ message: 'Réforme transmise avec succès', data: { id, stage: 2, isPublished: false } });
      expect(mails.map(recipientOf)).toEqual(['validation@reformes.test']);
      expect(mails[0]).toContain(`La réforme « ${label} » vous a été transmise.`);
      expect(mails[0]).toContain(`/admin/treatment-reformes?reforme=${id}`);
      expect(await byRoleIds(validation)).toContain(id);
      expect(await byRoleIds(saisie)).not.toContain(id);
    });

    it('refuses a return for correction without instruction (422 "L\'instruction est requise")', async () => {
      for (const instruction of [undefined, '   ']) {
        const response = await sendBack(validation, id, instruction);
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({
          message: 'Les données envoyées sont invalides.',
          errorsList: { instruction: ["L'instruction est requise"] },
        });
      }
      expect((await detail(id)).stage).toBe(2);
    });

    it('returns to saisie (stage 1) with the instruction shown in the detail and mailed to saisie', async () => {
      let response: Awaited<ReturnType<typeof sendBack>> | undefined;
      const mails = await mailsDuring(async () => {
        response = await sendBack(validation, id, 'Préciser le montant prévu');
      });
      expect(response?.statusCode).toBe(200);
      expect(response?.json()).toMatchObject({ message: 'Réforme retournée pour correction', data: { stage: 1 } });
      expect(mails.map(recipientOf)).toEqual(['saisie@reformes.test']);
      expect(mails[0]).toContain(`La réforme « ${label} » vous est retournée pour correction.`);
      expect(mails[0]).toContain('Instruction : Préciser le montant prévu');
      expect(mails[0]).toContain(`/admin/treatment-reformes?reforme=${id}`);
      expect((await detail(id, saisie)).affectation).toEqual({ instruction: 'Préciser le montant prévu' });
      expect(await byRoleIds(saisie)).toContain(id);
    });

    it('transmits again through validation to publication (stage 3), which is mailed', async () => {
      expect((await transmit(saisie, id)).json().data).toMatchObject({ stage: 2, affectation: null });
      let response: Awaited<ReturnType<typeof transmit>> | undefined;
      const mails = await mailsDuring(async () => {
        response = await transmit(validation, id);
      });
      expect(response?.json()).toMatchObject({ message: 'Réforme transmise avec succès', data: { stage: 3 } });
      expect(mails.map(recipientOf)).toEqual(['publication@reformes.test']);
      expect(await byRoleIds(publication)).toContain(id);
    });

    it('publishes (isPublished true), mails the creator, and drops the reform from every "à traiter" list', async () => {
      let response: Awaited<ReturnType<typeof publish>> | undefined;
      const mails = await mailsDuring(async () => {
        response = await publish(publication, id);
      });
      expect(response?.statusCode).toBe(200);
      expect(response?.json()).toMatchObject({ message: 'Réforme publiée avec succès', data: { id, stage: 3, isPublished: true } });
      expect(mails.map(recipientOf)).toEqual(['saisie@reformes.test']);
      expect(mails[0]).toContain(`La réforme « ${label} » que vous avez enregistrée vient d'être publiée.`);
      for (const caller of [saisie, validation, publication, central, admin]) expect(await byRoleIds(caller)).not.toContain(id);
      expectRefusal(await publish(publication, id), 409, MESSAGES.alreadyPublished);
      expectRefusal(await sendBack(publication, id, 'Trop tard'), 409, MESSAGES.publishedLocked);
    });

    it('unpublishes, once', async () => {
      const response = await unpublish(publication, id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: 'Publication de la réforme arrêtée', data: { stage: 3, isPublished: false } });
      expectRefusal(await unpublish(publication, id), 409, MESSAGES.notPublished);
      expect(await byRoleIds(publication)).toContain(id);
    });

    it('records every step in the history: who, from, to and instruction', async () => {
      const history = (await detail(id, saisie)).history;
      expect(
        history.map(
          (row: { event: string; from_stage: number | null; to_stage: number; sens: number; instruction: string | null; user: string }) => [
            row.event,
            row.sens,
            row.from_stage,
            row.to_stage,
            row.instruction,
            row.user,
          ],
        ),
      ).toEqual([
        ['creation', 0, null, 1, null, 'Awa Dubois'],
        ['transmission', -1, 1, 2, null, 'Awa Dubois'],
        ['retour', 1, 2, 1, 'Préciser le montant prévu', 'Jean-Paul Moreau'],
        ['transmission', -1, 1, 2, null, 'Awa Dubois'],
        ['transmission', -1, 2, 3, null, 'Jean-Paul Moreau'],
        ['publication', 0, 3, 3, null, 'Sophie Laurent'],
        ['depublication', 0, 3, 3, null, 'Sophie Laurent'],
      ]);
      expect(history.every((row: { created_at: string }) => !Number.isNaN(Date.parse(row.created_at)))).toBe(true);
    });
  });

  describe('refusals', () => {
    it('refuses a transition by the wrong role (403)', async () => {
      const atPublication = firstDemo((row) => row.stage === 3 && !row.isPublished && row.structure_id === structureId.MS);
      const atEntry = firstDemo((row) => row.stage === 1 && row.structure_id === structureId.MS);
      // The role holds the affectations right, but the workflow refuses the move.
      expectRefusal(await transmit(publication, atPublication.id), 403, MESSAGES.wrongRole);
      expectRefusal(await sendBack(saisie, atEntry.id, 'Corriger'), 403, MESSAGES.wrongRole);
      // Roles without the right are stopped by the guard.
      expectRefusal(await publish(saisie, atPublication.id), 403, MESSAGES.forbidden);
      expectRefusal(await publish(validation, atPublication.id), 403, MESSAGES.forbidden);
      expectRefusal(await unpublish(saisie, atPublication.id), 403, MESSAGES.forbidden);
      expectRefusal(await transmit(central, atEntry.id), 403, MESSAGES.forbidden);
      expectRefusal(await transmit(admin, atEntry.id), 403, MESSAGES.forbidden);
      expect((await detail(atPublication.id)).stage).toBe(3);
      expect((await detail(atEntry.id)).stage).toBe(1);
    });

    it('refuses a transition from the wrong stage (409)', async () => {
      const atValidation = firstDemo((row) => row.stage === 2 && row.structure_id === structureId.MS);
      const atEntry = firstDemo((row) => row.stage === 1 && row.structure_id === structureId.MS);
      const before = await historyCount(atValidation.id);
      expectRefusal(await transmit(saisie, atValidation.id), 409, MESSAGES.wrongStage);
      expectRefusal(await transmit(validation, atEntry.id), 409, MESSAGES.wrongStage);
      expectRefusal(await sendBack(validation, atEntry.id, 'Corriger'), 409, MESSAGES.wrongStage);
      expectRefusal(await sendBack(publication, atValidation.id, 'Corriger'), 409, MESSAGES.wrongStage);
      expectRefusal(await publish(publication, atValidation.id), 409, MESSAGES.wrongStage);
      expectRefusal(await publish(publication, atEntry.id), 409, MESSAGES.wrongStage);
      expectRefusal(await unpublish(central, atEntry.id), 409, MESSAGES.wrongStage);
      expect(await historyCount(atValidation.id)).toBe(before);
      expect((await detail(atValidation.id)).stage).toBe(2);
    });

    it('answers 404 to a reform out of the caller scope or unknown', async () => {
      const foreignAtValidation = firstDemo((row) => row.stage === 2 && row.structure_id === structureId.DGB);
      const foreignAtEntry = firstDemo((row) => row.stage === 1 && row.structure_id === structureId.MEN);
      expectRefusal(await transmit(validation, foreignAtValidation.id), 404, MESSAGES.notFound);
      expectRefusal(await sendBack(validation, foreignAtValidation.id, 'Corriger'), 404, MESSAGES.notFound);
      expectRefusal(await transmit(saisie, foreignAtEntry.id), 404, MESSAGES.notFound);
      expectRefusal(await transmit(saisie, 999999), 404, MESSAGES.notFound);
      expectRefusal(await publish(publication, 999999), 404, MESSAGES.notFound);
      expect((await detail(foreignAtValidation.id)).stage).toBe(2);
    });

    it('refuses to move or republish a published reform (409)', async () => {
      const published = firstDemo((row) => row.isPublished && row.structure_id === structureId.MS);
      expectRefusal(await publish(publication, published.id), 409, MESSAGES.alreadyPublished);
      expectRefusal(await publish(central, published.id), 409, MESSAGES.alreadyPublished);
      expectRefusal(await sendBack(publication, published.id, 'Corriger'), 409, MESSAGES.publishedLocked);
      expect(await byRoleIds(publication)).not.toContain(published.id);
    });

    it('refuses a malformed assignment (422)', async () => {
      const atEntry = firstDemo((row) => row.stage === 1 && row.structure_id === structureId.MS);
      const badSens = await saisie.post('affectations', { reforme_id: atEntry.id, sens: 0 });
      expect(badSens.statusCode).toBe(422);
      expect(badSens.json().errorsList).toEqual({ sens: ['Le sens doit valoir -1 (transmettre) ou 1 (retourner)'] });
      const noReforme = await saisie.post('affectations', { sens: -1 });
      expect(noReforme.statusCode).toBe(422);
      expect(noReforme.json().errorsList).toEqual({ reforme_id: ['La réforme est requise'] });
    });
  });

  describe('other paths', () => {
    it('lets publication return to validation (3 -> 2), whose detail shows the instruction', async () => {
      const created = await create('Retour depuis la publication');
      await transmit(saisie, created.id);
      await transmit(validation, created.id);
      const mails = await mailsDuring(async () => {
        const response = await sendBack(publication, created.id, 'Joindre le décret');
        expect(response.json()).toMatchObject({ message: 'Réforme retournée pour correction', data: { stage: 2 } });
      });
      expect(mails.map(recipientOf)).toEqual(['validation@reformes.test']);
      expect((await detail(created.id, validation)).affectation).toEqual({ instruction: 'Joindre le décret' });
      expect(await byRoleIds(validation)).toContain(created.id);
    });

    it('lets saisie central publish and unpublish a reform at stage 3', async () => {
      const created = await create('Publiée par la saisie centrale', central, { structure_id: structureId.MAG });
      expect(created).toMatchObject({ stage: 3, structure_id: structureId.MAG });
      expect((await publish(central, created.id)).json().data.isPublished).toBe(true);
      expect((await unpublish(central, created.id)).json().data.isPublished).toBe(false);
    });

    it('makes exactly one transition out of two simultaneous transmissions', async () => {
      const created = await create('Transmissions simultanées');
      const before = await historyCount(created.id);
      const responses = await Promise.all([transmit(saisie, created.id), transmit(saisie, created.id)]);
      expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
      const refused = responses.find((response) => response.statusCode === 409);
      expect(refused?.json()).toMatchObject({ message: MESSAGES.wrongStage });
      expect(await historyCount(created.id)).toBe(before + 1);
      const transmissions = await t.db
        .select()
        .from(affectations)
        .where(and(eq(affectations.reforme_id, created.id), eq(affectations.event, 'transmission')));
      expect(transmissions).toMatchObject([{ from_stage: 1, to_stage: 2 }]);
      expect((await detail(created.id)).stage).toBe(2);
    });
  });
});
