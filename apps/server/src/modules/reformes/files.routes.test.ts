import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reformeFiles, reformes } from '../../db/schema/index.ts';
import { bearer, type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

type Headers = Record<string, string>;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c63000100000500010d0a2db40000000049454e44ae426082',
  'hex',
);

const reforme = {
  libref: 'Réforme avec pièces jointes',
  typeref: 'TRANSVERSALE',
  nature_id: 1,
  objectif_glob: 'Documenter la réforme',
  popul_cible: 'Usagers',
  couverture_id: 1,
  struct_impl: 'Toutes les directions',
  date_debut: '2026-02-01',
  date_fin: '2026-11-30',
};

/** The multipart body of the upload modal: name_file, the file, and optionally the reform. */
function uploadForm(fields: { name_file?: string; file?: Buffer; filename?: string; reforme_id?: number }) {
  const form = new FormData();
  if (fields.name_file !== undefined) form.append('name_file', fields.name_file);
  if (fields.reforme_id !== undefined) form.append('reforme_id', String(fields.reforme_id));
  if (fields.file) form.append('file', new Blob([fields.file], { type: 'application/pdf' }), fields.filename ?? 'document.pdf');
  return form;
}

describe('reform attachments', () => {
  let t: TestApp;
  let saisie: Caller;
  let validation: Caller;
  let publication: Caller;
  let central: Caller;
  let structureId: Record<string, number>;

  const upload = (caller: Caller, fields: Parameters<typeof uploadForm>[0], app: TestApp = t) =>
    app.app.inject({ method: 'POST', url: '/api/v1/files', headers: caller.headers, payload: uploadForm(fields) });
  const storedNames = () => {
    const folder = path.join(t.config.storageDir, 'reformes');
    return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
  };

  beforeAll(async () => {
    t = await createTestApp();
    saisie = await t.as('saisie');
    validation = await t.as('validation');
    publication = await t.as('publication');
    central = await t.as('saisie central');
    const structureRows = (await central.get('structures')).json().data as Array<{ id: number; sigl: string }>;
    structureId = Object.fromEntries(structureRows.map((row) => [row.sigl, row.id]));
  });
  afterAll(() => t.close());

  it('stores a PDF under a generated name and answers 201 with the upload message', async () => {
    const before = storedNames();
    const response = await upload(saisie, { name_file: 'Rapport annuel', file: PDF, filename: 'rapport-final.pdf' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      message: 'Continuer en chargeant un autre fichier ou fermer le panel',
      data: { id: expect.any(Number), reforme_id: null, name_file: 'Rapport annuel', original_name: 'rapport-final.pdf', size: PDF.length },
    });
    const added = storedNames().filter((name) => !before.includes(name));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^[0-9a-f-]{36}\.pdf$/);
    expect(added[0]).not.toContain('rapport');
    expect(fs.readFileSync(path.join(t.config.storageDir, 'reformes', added[0]))).toEqual(PDF);
    expect(response.body).not.toContain(added[0]);
  });

  it('refuses an image renamed .pdf (415 "Prière charger des fichiers pdf") and stores nothing', async () => {
    const before = storedNames();
    const response = await upload(saisie, { name_file: 'Faux PDF', file: PNG, filename: 'x.pdf' });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ message: 'Prière charger des fichiers pdf' });
    expect(storedNames()).toEqual(before);
  });

  it('refuses a request that is not multipart (415)', async () => {
    const response = await saisie.post('files', { name_file: 'Sans fichier' });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ message: 'Prière charger des fichiers pdf' });
  });

  it('refuses an empty or missing file (422 "Le fichier est requis")', async () => {
    const empty = await upload(saisie, { name_file: 'Vide', file: Buffer.alloc(0), filename: 'vide.pdf' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({
      message: 'Les données envoyées sont invalides.',
      errorsList: { file: ['Le fichier est requis'] },
    });
    const missing = await upload(saisie, { name_file: 'Absent' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errorsList).toEqual({ file: ['Le fichier est requis'] });
  });

  it('refuses an upload without a name (422 "Le nom du fichier est requis")', async () => {
    const response = await upload(saisie, { file: PDF });
    expect(response.statusCode).toBe(422);
    expect(response.json().errorsList).toEqual({ name_file: ['Le nom du fichier est requis'] });
    const blank = await upload(saisie, { name_file: '   ', file: PDF });
    expect(blank.json().errorsList).toEqual({ name_file: ['Le nom du fichier est requis'] });
  });

  it.each(['../../etc/passwd', 'dossier/rapport', '..\\rapport'])('refuses a name with a path in it: %s (422)', async (name) => {
    const response = await upload(saisie, { name_file: name, file: PDF });
    expect(response.statusCode).toBe(422);
    expect(response.json().errorsList).toEqual({ name_file: ['Le nom du fichier ne doit pas contenir de chemin'] });
  });

  it.each(['../evil.pdf', 'dossier/rapport.pdf'])(
    'refuses a file name with a path in it: %s (422) and stores nothing',
    async (filename) => {
      const before = storedNames();
      const response = await upload(saisie, { name_file: 'Rapport', file: PDF, filename });
      expect(response.statusCode).toBe(422);
      expect(response.json().errorsList).toEqual({ file: ['Le nom du fichier ne doit pas contenir de chemin'] });
      expect(storedNames()).toEqual(before);
    },
  );

  it('refuses a file over the configured size (413)', async () => {
    const small = await createTestApp({ UPLOAD_MAX_MB: '0.01' });
    try {
      const caller = await small.as('saisie');
      const big = Buffer.concat([PDF, Buffer.alloc(20 * 1024, 0x20)]);
      const response = await upload(caller, { name_file: 'Trop gros', file: big }, small);
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toMatch(/^Le fichier est trop volumineux\./);
      const fits = await upload(caller, { name_file: 'Petit', file: PDF }, small);
      expect(fits.statusCode).toBe(201);
      expect(fs.readdirSync(path.join(small.config.storageDir, 'reformes'))).toHaveLength(1);
    } finally {
      await small.close();
    }
  });

  it('attaches a pending upload to the reform its uploader creates, never one of somebody else', async () => {
    const byValidation = (await upload(validation, { name_file: 'Pièce de la validation', file: PDF })).json().data.id;
    const count = async () => (await t.db.select({ id: reformes.id }).from(reformes)).length;
    const before = await count();
    const stolen = await saisie.post('reformes', { ...reforme, files: [byValidation] });
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().errorsList).toEqual({ files: ['Fichier joint inconnu'] });
    expect(await count()).toBe(before);
    // A pending upload is visible to its uploader only.
    expect((await saisie.get(`files/${byValidation}`)).statusCode).toBe(404);
    expect((await validation.get(`files/${byValidation}`)).statusCode).toBe(200);

    const own = (await upload(saisie, { name_file: 'Annexe technique', file: PDF })).json().data.id;
    const created = await saisie.post('reformes', { ...reforme, files: [own] });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.files).toMatchObject([
      { id: own, name_file: 'Annexe technique', original_name: 'document.pdf', size: PDF.length },
    ]);
    const again = await saisie.post('reformes', { ...reforme, libref: 'Seconde', files: [own] });
    expect(again.statusCode).toBe(422);
    expect(again.json().errorsList).toEqual({ files: ['Fichier joint inconnu'] });
  });

  it('attaches a file to an existing reform by update, or directly with reforme_id', async () => {
    const created = (await saisie.post('reformes', { ...reforme, libref: 'Complétée plus tard' })).json().data;
    const pending = (await upload(saisie, { name_file: 'Compte rendu', file: PDF })).json().data.id;
    const updated = await saisie.put(`reformes/${created.id}`, { ...reforme, libref: 'Complétée plus tard', files: [pending] });
    expect(updated.json().data.files.map((file: { id: number }) => file.id)).toEqual([pending]);

    const direct = await upload(saisie, { name_file: 'Arrêté', file: PDF, reforme_id: created.id });
    expect(direct.statusCode).toBe(201);
    expect(direct.json().data.reforme_id).toBe(created.id);
    const detail = (await validation.get(`reformes/${created.id}`)).json().data;
    expect(detail.files.map((file: { name_file: string }) => file.name_file)).toEqual(['Compte rendu', 'Arrêté']);
  });

  it('serves an attachment as application/pdf within scope only (404 to saisie of another structure)', async () => {
    const pending = (await upload(central, { name_file: 'Note budgétaire', file: PDF })).json().data.id;
    const created = await central.post('reformes', {
      ...reforme,
      libref: 'Réforme du budget',
      structure_id: structureId.DGB,
      files: [pending],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.structure_id).toBe(structureId.DGB);

    for (const caller of [central, publication]) {
      const response = await caller.get(`files/${pending}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toContain('Note budg');
      expect(response.rawPayload).toEqual(PDF);
    }
    for (const caller of [saisie, validation]) {
      const response = await caller.get(`files/${pending}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ message: "L'élément demandé est introuvable." });
    }
    expect((await upload(saisie, { name_file: 'Intrusion', file: PDF, reforme_id: created.json().data.id })).statusCode).toBe(404);
    expect((await saisie.delete(`files/${pending}`)).statusCode).toBe(404);
    expect((await central.get('files/999999')).statusCode).toBe(404);
  });

  it('refuses to add a file to a published reform for saisie (409)', async () => {
    const all = (await saisie.get('reformes')).json().data as Array<{ id: number; isPublished: boolean }>;
    const published = all.find((row) => row.isPublished);
    expect(published).toBeDefined();
    const response = await upload(saisie, { name_file: 'Trop tard', file: PDF, reforme_id: published?.id });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: 'Une réforme publiée ne peut plus être modifiée.' });
  });

  it('gives every uploaded file its chemin, the URL it is read from (spec §3)', async () => {
    const uploaded = (await upload(saisie, { name_file: 'Étude préalable', file: PDF })).json().data;
    const chemin = `/api/v1/files/${uploaded.id}`;
    expect(uploaded).toMatchObject({ id: expect.any(Number), name_file: 'Étude préalable', original_name: 'document.pdf', chemin });

    const created = (await saisie.post('reformes', { ...reforme, libref: 'Réforme au chemin', files: [uploaded.id] })).json().data;
    expect(created.files).toMatchObject([{ id: uploaded.id, name_file: 'Étude préalable', chemin }]);
    const detail = (await saisie.get(`reformes/${created.id}`)).json().data;
    expect(detail.files).toMatchObject([{ id: uploaded.id, chemin }]);

    const rowOf = (rows: Array<{ id: number; files: unknown }>) => rows.find((row) => row.id === created.id);
    const listed = (await saisie.get('reformes?per_page=10&page=1')).json().data.data;
    expect(rowOf(listed)?.files).toEqual([{ id: uploaded.id, name_file: 'Étude préalable', chemin }]);
    const mine = (await saisie.get('reformes/users/get-my-list?per_page=10&page=1')).json().data.data;
    expect(rowOf(mine)?.files).toEqual([{ id: uploaded.id, name_file: 'Étude préalable', chemin }]);
    const waiting = (await saisie.get('reformes/users/get-by-role?per_page=10&page=1')).json().data.data;
    expect(rowOf(waiting)?.files).toEqual([{ id: uploaded.id, name_file: 'Étude préalable', chemin }]);

    // The chemin is the download route itself.
    const read = await t.app.inject({ method: 'GET', url: chemin, headers: saisie.headers });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('application/pdf');
    expect(read.rawPayload).toEqual(PDF);
  });

  it('stores the files readable by the server user only (file 0600, folders 0700)', async () => {
    const uploaded = await upload(saisie, { name_file: 'Fichier privé', file: PDF });
    expect(uploaded.statusCode).toBe(201);
    const [row] = await t.db.select({ name: reformeFiles.name }).from(reformeFiles).where(eq(reformeFiles.id, uploaded.json().data.id));
    expect(fs.statSync(path.join(t.config.storageDir, 'reformes', row.name)).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.join(t.config.storageDir, 'reformes')).mode & 0o777).toBe(0o700);
  });

  it.each([
    ['an HTML page', '<html><body>Bonjour</body></html>'],
    ['a script', '<SCRIPT>alert(document.cookie)</SCRIPT>'],
    ['a doctype', '<!DOCTYPE html>\n<p>Bonjour</p>'],
    ['an iframe', '<iframe src="https://example.org">'],
  ])('refuses a PDF that is also a web page: %s (422) and stores nothing', async (_label, markup) => {
    const before = storedNames();
    const polyglot = Buffer.from(`%PDF-1.4\n${markup}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
    const response = await upload(saisie, { name_file: 'Polyglotte', file: polyglot });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      message: 'Les données envoyées sont invalides.',
      errorsList: { file: ['Le fichier contient du HTML ou du script : seuls les documents PDF sont acceptés.'] },
    });
    expect(storedNames()).toEqual(before);
  });

  it('refuses a PDF without its %%EOF end marker (422), and accepts one followed by a few trailing bytes', async () => {
    const cut = await upload(saisie, { name_file: 'Tronqué', file: PDF.subarray(0, PDF.indexOf('%%EOF')) });
    expect(cut.statusCode).toBe(422);
    expect(cut.json().errorsList).toEqual({ file: ['Le fichier PDF est incomplet ou endommagé (fin de document absente).'] });
    const trailing = await upload(saisie, { name_file: 'Fin suivie de blancs', file: Buffer.concat([PDF, Buffer.alloc(200, 0x0a)]) });
    expect(trailing.statusCode).toBe(201);
  });

  it('sends a download as an attachment, typed application/pdf, never sniffed nor run as a page', async () => {
    const id = (await upload(saisie, { name_file: 'Téléchargement', file: PDF })).json().data.id;
    const response = await saisie.get(`files/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="T_l_chargement.pdf"; filename*=UTF-8''${encodeURIComponent('Téléchargement.pdf')}`,
    );
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(response.rawPayload).toEqual(PDF);
  });

  it('removes the uploads no reform claimed within 24 h, rows and files, at the next upload', async () => {
    const old = (await upload(validation, { name_file: 'Oubliée', file: PDF })).json().data.id;
    const recent = (await upload(validation, { name_file: 'Récente', file: PDF })).json().data.id;
    const [oldRow] = await t.db.select({ name: reformeFiles.name }).from(reformeFiles).where(eq(reformeFiles.id, old));
    await t.db
      .update(reformeFiles)
      .set({ created_at: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(reformeFiles.id, old));
    expect(storedNames()).toContain(oldRow.name);

    expect((await upload(saisie, { name_file: 'Déclencheur', file: PDF })).statusCode).toBe(201);
    expect(storedNames()).not.toContain(oldRow.name);
    expect(await t.db.select().from(reformeFiles).where(eq(reformeFiles.id, old))).toEqual([]);
    expect((await validation.get(`files/${old}`)).statusCode).toBe(404);
    const claimed = await validation.post('reformes', { ...reforme, libref: 'Trop tard', files: [old] });
    expect(claimed.statusCode).toBe(422);
    expect(claimed.json().errorsList).toEqual({ files: ['Fichier joint inconnu'] });
    expect((await validation.get(`files/${recent}`)).statusCode).toBe(200);
  });

  it('removes an attachment and its stored file', async () => {
    const created = (await saisie.post('reformes', { ...reforme, libref: 'Pièce retirée' })).json().data;
    const id = (await upload(saisie, { name_file: 'À retirer', file: PDF, reforme_id: created.id })).json().data.id;
    const before = storedNames();
    const response = await saisie.delete(`files/${id}`);
    expect(response.json()).toMatchObject({ message: 'Suppression effectuée avec succès' });
    expect(storedNames()).toHaveLength(before.length - 1);
    expect((await saisie.get(`files/${id}`)).statusCode).toBe(404);
    const [row] = await t.db.select({ id: reformes.id }).from(reformes).where(eq(reformes.id, created.id));
    expect(row).toEqual({ id: created.id });
  });
});

describe('uploads waiting for their reform (PENDING_UPLOADS_MAX, PENDING_UPLOADS_MAX_MB)', () => {
  let t: TestApp;
  let saisie: Headers;
  const FULL =
    "Trop de fichiers en attente d'enregistrement : enregistrez la réforme ou retirez des fichiers avant d'en charger d'autres. (au plus 3 fichiers et 0,001 Mo)";

  const upload = (headers: Headers, fields: Parameters<typeof uploadForm>[0]) =>
    t.app.inject({ method: 'POST', url: '/api/v1/files', headers, payload: uploadForm(fields) });

  beforeAll(async () => {
    t = await createTestApp({ PENDING_UPLOADS_MAX: '3', PENDING_UPLOADS_MAX_MB: '0.001' });
    saisie = bearer((await t.login('saisie@reformes.test')).access_token);
  });
  afterAll(() => t.close());

  it('refuses a pending upload past the count or the bytes allowed per user (422), not an upload for an existing reform', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await upload(saisie, { name_file: `En attente ${i}`, file: PDF });
      expect(response.statusCode).toBe(201);
      ids.push(response.json().data.id);
    }
    const fourth = await upload(saisie, { name_file: 'De trop', file: PDF });
    expect(fourth.statusCode).toBe(422);
    expect(fourth.json()).toMatchObject({ message: FULL });

    // Another user has a quota of their own; a file for an existing reform is attached, not pending.
    const validation = bearer((await t.login('validation@reformes.test')).access_token);
    expect((await upload(validation, { name_file: 'À moi', file: PDF })).statusCode).toBe(201);
    const reformeId = (
      await t.app.inject({ method: 'POST', url: '/api/v1/reformes', headers: saisie, payload: { ...reforme, files: [ids[0]] } })
    ).json().data.id;
    expect((await upload(saisie, { name_file: 'Pour la réforme', file: PDF, reforme_id: reformeId })).statusCode).toBe(201);

    // Claiming one made room.
    expect((await upload(saisie, { name_file: 'Place libérée', file: PDF })).statusCode).toBe(201);
    const tooBig = await upload(validation, { name_file: 'Trop lourd', file: Buffer.concat([PDF, Buffer.alloc(1024, 0x20), PDF]) });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json()).toMatchObject({ message: FULL });
  });
});
