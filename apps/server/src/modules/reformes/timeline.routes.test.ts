import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { structures } from '../../db/schema/index.ts';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

const reforme = {
  libref: 'Guichet unique des démarches',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Simplifier les démarches',
  popul_cible: 'Usagers',
  couverture_id: 1,
  struct_impl: 'Secrétariat général',
  date_debut: '2026-04-01',
  date_fin: '2026-10-31',
};

type Line = {
  key: string;
  at: string;
  kind: string;
  action: string;
  field: string | null;
  field_label: string | null;
  before: string | null;
  after: string | null;
  instruction: string | null;
  actor: { name: string; role: string | null; structure: string | null } | null;
};

/** Issue 32, item 1: every change to a reform and what hangs off it, one timeline with the workflow's steps. */
describe('the history of a reform (GET reformes/{id}/history)', () => {
  let t: TestApp;
  let saisie: Caller;
  let reformeId: number;
  const history = async (query = '', caller = saisie) => caller.get(`reformes/${reformeId}/history${query}`);
  const lines = async (query = '') => (await history(query)).json().data.data as Line[];

  beforeAll(async () => {
    t = await createTestApp();
    saisie = await t.as('saisie');
    const created = await saisie.post('reformes', reforme);
    expect(created.statusCode, created.body).toBe(201);
    reformeId = created.json().data.id;
  });
  afterAll(() => t?.close());

  it('shows the creation, then each field changed with its French label, its values before and after, and who', async () => {
    const updated = await saisie.put(`reformes/${reformeId}`, {
      ...reforme,
      libref: 'Guichet unique numérique',
      popul_cible: 'Entreprises',
    });
    expect(updated.statusCode, updated.body).toBe(200);

    const timeline = await lines();
    const changes = timeline.filter((line) => line.action === 'update');
    expect(changes.map((line) => [line.field_label, line.before, line.after]).sort()).toEqual([
      ['Libellé de la réforme', 'Guichet unique des démarches', 'Guichet unique numérique'],
      ['Population cible', 'Usagers', 'Entreprises'],
    ]);
    expect(changes[0].actor).toEqual({ name: expect.stringMatching(/\S/), role: 'saisie', structure: 'MS' });
    // ISO 8601 on the wire, whatever the driver gives back for a timestamptz.
    for (const line of timeline) expect(new Date(line.at).toISOString().slice(0, 10)).toBe(line.at.slice(0, 10));
    for (const line of timeline) expect(line.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
    // Newest first: the changes, then the creation (its line and the workflow's "Création").
    expect(timeline.at(-1)?.action).toMatch(/^(create|creation)$/);
    expect(timeline.filter((line) => line.kind === 'reforme' && line.action === 'create')).toHaveLength(1);
    expect(timeline.filter((line) => line.kind === 'workflow' && line.action === 'creation')).toHaveLength(1);
  });

  it('records objectives, expected results, follow-up records and attachments, filterable by kind, paged with the true total', async () => {
    const objectif = (await saisie.post('objectifs', { reforme_id: reformeId, libobjectif: 'Réduire les délais' })).json().data;
    const renamed = await saisie.put(`objectifs/${objectif.id}`, { reforme_id: reformeId, libobjectif: 'Réduire les délais de moitié' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const result = await saisie.post('resultats', {
      objectif_id: objectif.id,
      libresult: 'Délai moyen',
      indicateur: 'Jours',
      valeur_cible: '10',
      valeurref: '45',
    });
    expect(result.statusCode, result.body).toBe(201);
    const record = await saisie.post('suivi-results', {
      result_id: result.json().data.id,
      taux_realisat: 20,
      valeur_realise: 38,
      date: '2026-05-01',
    });
    expect(record.statusCode, record.body).toBe(201);
    const form = new FormData();
    form.append('name_file', 'Étude préalable');
    form.append('reforme_id', String(reformeId));
    form.append('file', new Blob([Buffer.from('%PDF-1.4\n1 0 obj\n%%EOF\n')], { type: 'application/pdf' }), 'etude.pdf');
    const uploaded = await t.app.inject({ method: 'POST', url: '/api/v1/files', headers: saisie.headers, payload: form });
    expect(uploaded.statusCode, uploaded.body).toBe(201);

    const objectifLines = await lines('?kind=objectif');
    expect(objectifLines.map((line) => [line.action, line.field_label, line.before, line.after])).toEqual([
      ['update', 'Objectif', 'Réduire les délais', 'Réduire les délais de moitié'],
      ['create', null, null, 'Réduire les délais'],
    ]);
    expect((await lines('?kind=resultat')).map((line) => [line.action, line.after])).toEqual([['create', 'Délai moyen']]);
    expect((await lines('?kind=suivi')).map((line) => [line.action, line.after])).toEqual([['create', '2026-05-01']]);
    expect((await lines('?kind=fichier')).map((line) => [line.action, line.after])).toEqual([['create', 'Étude préalable']]);

    const all = (await history('?per_page=3&page=1')).json().data;
    expect(all.total).toBeGreaterThanOrEqual(9);
    expect(all.data).toHaveLength(3);
    const last = (await history(`?per_page=3&page=${all.last_page}`)).json().data;
    const keys = new Set<string>();
    for (let page = 1; page <= all.last_page; page++)
      for (const line of (await history(`?per_page=3&page=${page}`)).json().data.data as Line[]) keys.add(line.key);
    expect(keys.size).toBe(all.total);
    expect(last.data.length).toBeGreaterThan(0);
    expect((await history('?kind=inconnu')).statusCode).toBe(422);
  });

  it('shows the workflow steps, by whom', async () => {
    const central = await t.as('saisie central');
    const [ms] = await t.db.select({ id: structures.id }).from(structures).where(eq(structures.sigl, 'MS'));
    const created = await central.post('reformes', { ...reforme, libref: 'Réforme publiée', structure_id: ms.id });
    expect(created.statusCode, created.body).toBe(201);
    const own = created.json().data;
    expect((await central.get(`reformes/state/publish/${own.id}`)).statusCode).toBe(200);
    const answer = await central.get(`reformes/${own.id}/history?kind=workflow`);
    expect(answer.statusCode, answer.body).toBe(200);
    const steps = answer.json().data.data as Line[];
    expect(steps.map((line) => line.action)).toEqual(['publication', 'creation']);
    expect(steps[0].actor?.role).toBe('saisie central');
  });

  it('is scoped like the reform: a saisie user of another structure gets 404, nothing of its history', async () => {
    const [other] = await t.db.select({ id: structures.id }).from(structures).where(eq(structures.sigl, 'MEN'));
    const stranger = await t.createAccount('saisie', { structure_id: other.id });
    const caller = await t.as(stranger.email);
    expect((await history('', caller)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/reformes/${reformeId}/history` })).statusCode).toBe(401);
  });

  it('writes no line for a change that fails, and stores a long text once however many lines show it', async () => {
    const before = (await history()).json().data.total;
    // The update passes the checks, then an unknown attachment makes its transaction roll back.
    const failed = await saisie.put(`reformes/${reformeId}`, { ...reforme, libref: 'Jamais enregistré', files: [999999] });
    expect(failed.statusCode).toBeGreaterThanOrEqual(400);
    expect(failed.statusCode).toBeLessThan(500);
    expect((await history()).json().data.total).toBe(before);

    const long = `Une longue description.${' Texte'.repeat(700)}`;
    for (const popul_cible of ['Tous', 'Agents']) {
      const response = await saisie.put(`reformes/${reformeId}`, { ...reforme, objectif_glob: long, popul_cible });
      expect(response.statusCode, response.body).toBe(200);
    }
    const stored = await t.db.execute<{ copies: number }>(sql`select count(*)::int as copies from history_values where content = ${long}`);
    expect(stored.rows[0].copies).toBe(1);
  });
});
