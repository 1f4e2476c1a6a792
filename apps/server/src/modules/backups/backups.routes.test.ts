import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backups } from '../../db/schema/index.ts';
import { bearer, type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

type Headers = Record<string, string>;
interface Backup {
  id: number;
  name: string;
  type: string;
  size: number;
  created_at: string;
  is_active: boolean;
}

const MESSAGES = {
  done: 'Base de donnée sauvegardée',
  forbidden: "Vous n'avez pas les droits nécessaires pour effectuer cette action.",
  unauthenticated: 'Session expirée ou absente, veuillez vous reconnecter.',
  notFound: "L'élément demandé est introuvable.",
  invalid: 'Les données envoyées sont invalides.',
};

const folderOf = (row: Backup) => (row.type === 'doc' ? 'docs' : 'db_data');
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);
const PG_DUMP_MAGIC = Buffer.from('PGDMP');

describe('backups', () => {
  let t: TestApp;
  let admin: Caller;
  let saisie: Caller;
  let central: Caller;
  let made: Backup[];

  const fileOf = (app: TestApp, row: Backup) => path.join(app.config.backupDir, folderOf(row), row.name);

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('admin');
    saisie = await t.as('saisie');
    central = await t.as('saisie central');
    fs.mkdirSync(path.join(t.config.storageDir, 'reformes'), { recursive: true });
    fs.writeFileSync(path.join(t.config.storageDir, 'reformes', 'piece-jointe.pdf'), '%PDF-1.4 pièce jointe');
  });
  afterAll(() => t.close());

  it('makes a database dump and a documents archive (GET api/save-db: "Base de donnée sauvegardée")', async () => {
    const response = await admin.get('api/save-db');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.message).toBe(MESSAGES.done);
    made = body.data;
    expect(made.map((row) => row.type).sort()).toEqual(['doc', t.database.kind].sort());
    for (const row of made) {
      expect(row).toMatchObject({ id: expect.any(Number), name: expect.any(String), size: expect.any(Number) });
      expect(Number.isNaN(Date.parse(row.created_at))).toBe(false);
      expect(row.name).toMatch(/^[\w.-]+$/);
      const file = fileOf(t, row);
      expect(fs.existsSync(file)).toBe(true);
      expect(fs.statSync(file).size).toBe(row.size);
      expect(row.size).toBeGreaterThan(0);
    }
    const database = made.find((row) => row.type !== 'doc') as Backup;
    const documents = made.find((row) => row.type === 'doc') as Backup;
    expect(fs.existsSync(path.join(t.config.backupDir, 'db_data', database.name))).toBe(true);
    expect(fs.existsSync(path.join(t.config.backupDir, 'docs', documents.name))).toBe(true);
    expect(documents.name).toMatch(/\.tar\.gz$/);
    expect(fs.readFileSync(fileOf(t, documents)).subarray(0, 2)).toEqual(GZIP_MAGIC);
    const bytes = fs.readFileSync(fileOf(t, database));
    if (t.database.kind === 'embedded') {
      // The app's own dump (the embedded binaries have no pg_dump): gzipped lines, a header first.
      expect(database.name).toMatch(/-db\.jsonl\.gz$/);
      const [header] = zlib.gunzipSync(bytes).toString('utf8').split('\n', 1);
      expect(JSON.parse(header)).toMatchObject({ format: 'reformes-dump', version: 1 });
    } else {
      expect(database.name).toMatch(/-db\.dump$/);
      expect(bytes.subarray(0, 5)).toEqual(PG_DUMP_MAGIC);
    }
  });

  it('is reserved to admin: saisie and saisie central get 403, anonymous 401', async () => {
    for (const caller of [saisie, central]) {
      for (const url of ['api/save-db', 'api/backups?per_page=10&page=1', 'backups']) {
        const response = await caller.get(url);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ message: MESSAGES.forbidden });
      }
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/api/save-db' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ message: MESSAGES.unauthenticated });
  });

  it('lists the backups page by page (GET api/backups?per_page=10&page=1) and whole (GET backups)', async () => {
    const paged = await admin.get('api/backups?per_page=10&page=1');
    expect(paged.statusCode).toBe(200);
    expect(paged.json()).toMatchObject({ isPaginate: true, data: { current_page: 1, per_page: 10, total: 2, last_page: 1 } });
    const rows = paged.json().data.data as Backup[];
    expect(rows.map((row) => row.id).sort()).toEqual(made.map((row) => row.id).sort());
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(['created_at', 'id', 'is_active', 'name', 'size', 'type']);
    const whole = await admin.get('backups');
    expect(whole.json()).toMatchObject({ isPaginate: false });
    expect((whole.json().data as Backup[]).map((row) => row.name).sort()).toEqual(made.map((row) => row.name).sort());
    const one = await admin.get(`backups/${made[0].id}`);
    expect(one.json()).toMatchObject({ data: { id: made[0].id, name: made[0].name } });
  });

  it('searches the list by name or type, accents and case aside, with the true total (GET api/backups?search=)', async () => {
    const documents = made.find((row) => row.type === 'doc') as Backup;
    const byType = await admin.get('api/backups?per_page=10&page=1&search=DÔC');
    expect(byType.statusCode).toBe(200);
    expect(byType.json()).toMatchObject({ isPaginate: true, data: { total: 1, last_page: 1, data: [{ id: documents.id }] } });
    const byName = await admin.get(`api/backups?per_page=10&page=1&search=${encodeURIComponent(documents.name.slice(0, 20))}`);
    expect(byName.json().data.total).toBe(2);
    const nothing = await admin.get('api/backups?per_page=10&page=1&search=introuvable');
    expect(nothing.json()).toMatchObject({ isPaginate: true, data: { data: [], total: 0, last_page: 1 } });
    const whole = await admin.get('backups?search=doc');
    expect(whole.json()).toMatchObject({ isPaginate: false, data: [{ id: documents.id }] });
  });

  it('answers POST backups-search {search} whole, or paged with per_page in the query string or the body', async () => {
    const documents = made.find((row) => row.type === 'doc') as Backup;
    const whole = await admin.post('backups-search', { search: 'doc' });
    expect(whole.statusCode).toBe(200);
    expect(whole.json()).toMatchObject({ isPaginate: false, data: [{ id: documents.id }] });

    const inQuery = await admin.post('backups-search?per_page=1&page=2', { search: 'reformes' });
    expect(inQuery.json()).toMatchObject({ isPaginate: true, data: { current_page: 2, per_page: 1, total: 2, last_page: 2 } });
    expect(inQuery.json().data.data).toHaveLength(1);
    const inBody = await admin.post('backups-search', { search: 'reformes', per_page: 1, page: 2 });
    expect(inBody.json()).toEqual(inQuery.json());

    for (const caller of [saisie, central]) {
      const refused = await caller.post('backups-search', { search: 'doc' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ message: MESSAGES.forbidden });
    }
  });

  describe('downloads (GET storage/backups/docs|db_data/{name})', () => {
    it('streams each file to an admin, byte for byte, as an attachment', async () => {
      for (const row of made) {
        const response = await admin.get(`storage/backups/${folderOf(row)}/${row.name}`);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/octet-stream');
        expect(response.headers['content-disposition']).toBe(`attachment; filename="${row.name}"`);
        const onDisk = fs.readFileSync(fileOf(t, row));
        expect(response.rawPayload.length).toBe(onDisk.length);
        // Buffer.equals: a deep toEqual over megabytes takes tens of seconds.
        expect(response.rawPayload.equals(onDisk)).toBe(true);
      }
    });

    it('refuses an anonymous download (401) and a non-admin one (403)', async () => {
      for (const row of made) {
        const url = `/api/v1/storage/backups/${folderOf(row)}/${row.name}`;
        const anonymous = await t.app.inject({ method: 'GET', url });
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.json()).toMatchObject({ message: MESSAGES.unauthenticated });
        const bySaisie = await t.app.inject({ method: 'GET', url, headers: saisie.headers });
        expect(bySaisie.statusCode).toBe(403);
        expect(bySaisie.json()).toMatchObject({ message: MESSAGES.forbidden });
      }
    });

    it('answers 404 for an unknown name or a file asked for in the wrong folder', async () => {
      const database = made.find((row) => row.type !== 'doc') as Backup;
      const documents = made.find((row) => row.type === 'doc') as Backup;
      for (const url of [
        `storage/backups/docs/${database.name}`,
        `storage/backups/db_data/${documents.name}`,
        'storage/backups/docs/reformes-inconnue-docs.tar.gz',
      ]) {
        const response = await admin.get(url);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ message: MESSAGES.notFound });
      }
    });

    it('never serves a file outside the backup folders, whatever the name (422 or 404)', async () => {
      const secret = path.join(t.config.dataDir, 'secret.txt');
      fs.writeFileSync(secret, 'ne doit jamais sortir');
      for (const name of [
        '..%2F..%2Fsecret.txt',
        '..%2Fsecret.txt',
        '%2E%2E%2F%2E%2E%2Fsecret.txt',
        '..%5C..%5Csecret.txt',
        '..',
        '../../secret.txt',
        '..%252F..%252Fsecret.txt',
        encodeURIComponent(path.join(t.config.dataDir, 'secret.txt')),
      ]) {
        for (const folder of ['docs', 'db_data']) {
          const response = await admin.get(`storage/backups/${folder}/${name}`);
          expect([404, 422]).toContain(response.statusCode);
          expect(response.body).not.toContain('ne doit jamais sortir');
        }
      }
      const encoded = await admin.get('storage/backups/docs/..%2F..%2Fsecret.txt');
      expect(encoded.statusCode).toBe(422);
      expect(encoded.json()).toMatchObject({ message: MESSAGES.invalid, errorsList: { name: ['Nom de fichier invalide'] } });
    });

    it('exposes neither the backup folder nor STORAGE_DIR as static files', async () => {
      const documents = made.find((row) => row.type === 'doc') as Backup;
      for (const url of [
        `/storage/backups/docs/${documents.name}`,
        `/backups/docs/${documents.name}`,
        `/docs/${documents.name}`,
        '/storage/reformes/piece-jointe.pdf',
        '/reformes/piece-jointe.pdf',
        '/api/v1/storage/reformes/piece-jointe.pdf',
      ]) {
        const response = await t.app.inject({ method: 'GET', url, headers: admin.headers });
        expect(response.statusCode).not.toBe(200);
        expect(response.body).not.toContain('pièce jointe');
      }
    });
  });
});

describe('removing a backup', () => {
  let t: TestApp;
  let admin: Headers;
  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await t.login('admin@reformes.test')).access_token);
  });
  afterAll(() => t.close());

  it('deletes the row and its file together (DELETE backups/{id}), admin only', async () => {
    const made = (await t.app.inject({ method: 'GET', url: '/api/v1/api/save-db', headers: admin })).json().data as Backup[];
    const documents = made.find((row) => row.type === 'doc') as Backup;
    const file = path.join(t.config.backupDir, 'docs', documents.name);
    const saisie = bearer((await t.login('saisie@reformes.test')).access_token);
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/v1/backups/${documents.id}`, headers: saisie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ message: MESSAGES.forbidden });
    expect(fs.existsSync(file)).toBe(true);

    const response = await t.app.inject({ method: 'DELETE', url: `/api/v1/backups/${documents.id}`, headers: admin });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'Suppression effectuée avec succès' });
    expect(fs.existsSync(file)).toBe(false);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/backups', headers: admin })).json().data as Backup[];
    expect(listed.map((row) => row.id)).toEqual(made.filter((row) => row.type !== 'doc').map((row) => row.id));
    const download = await t.app.inject({ method: 'GET', url: `/api/v1/storage/backups/docs/${documents.name}`, headers: admin });
    expect(download.statusCode).toBe(404);
  });
});

describe("BACKUP_DATABASE_FORMAT=logical (the container image: no pg_dump of the server's version needed)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BACKUP_DATABASE_FORMAT: 'logical' });
  });
  afterAll(() => t.close());

  it("dumps the database with the app's own logical dump, on PostgreSQL too", async () => {
    const admin = bearer((await t.login('admin@reformes.test')).access_token);
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/api/save-db', headers: admin });
    expect(response.statusCode).toBe(200);
    const database = (response.json().data as Backup[]).find((row) => row.type !== 'doc') as Backup;
    expect(database.type).toBe(t.database.kind);
    expect(database.name).toMatch(/-db\.jsonl\.gz$/);
    const [header] = zlib
      .gunzipSync(fs.readFileSync(path.join(t.config.backupDir, 'db_data', database.name)))
      .toString('utf8')
      .split('\n', 1);
    expect(JSON.parse(header)).toMatchObject({ format: 'reformes-dump', version: 1 });
  });
});

describe('a long list of backups', () => {
  let t: TestApp;
  let admin: Headers;
  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await t.login('admin@reformes.test')).access_token);
    // Rows only: listing and searching never open the files.
    await t.db
      .insert(backups)
      .values(Array.from({ length: 1001 }, (_, index) => ({ name: `reformes-ancienne-${index + 1}-docs.tar.gz`, type: 'doc', size: 1 })));
  });
  afterAll(() => t.close());

  it('comes without per_page in pages of 1000 with the true total above 1000 rows, whole below (GET backups, POST backups-search)', async () => {
    for (const url of ['backups', 'api/backups']) {
      const response = await t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: admin });
      expect(response.json()).toMatchObject({ isPaginate: true, data: { current_page: 1, per_page: 1000, total: 1001, last_page: 2 } });
      expect(response.json().data.data).toHaveLength(1000);
    }
    const searched = await t.app.inject({ method: 'POST', url: '/api/v1/backups-search', headers: admin, payload: { search: 'ANCIENNE' } });
    expect(searched.json()).toMatchObject({ isPaginate: true, data: { per_page: 1000, total: 1001, last_page: 2 } });
    const narrow = await t.app.inject({
      method: 'POST',
      url: '/api/v1/backups-search',
      headers: admin,
      payload: { search: 'ancienne-100' },
    });
    // "ancienne-100" is in 100, 1000 and 1001.
    expect(narrow.json()).toMatchObject({ isPaginate: false });
    expect((narrow.json().data as Backup[]).map((row) => row.name).sort()).toEqual([
      'reformes-ancienne-100-docs.tar.gz',
      'reformes-ancienne-1000-docs.tar.gz',
      'reformes-ancienne-1001-docs.tar.gz',
    ]);
  });
});

describe('backup retention (BACKUP_RETENTION)', () => {
  let t: TestApp;
  let admin: Headers;
  beforeAll(async () => {
    t = await createTestApp({ BACKUP_RETENTION: '2' });
    admin = bearer((await t.login('admin@reformes.test')).access_token);
  });
  afterAll(() => t.close());

  it('keeps only the last N backups of each type, removing older rows and files together', async () => {
    // A dump from when the embedded database was PGlite counts with the database dumps, and goes first.
    const legacy = 'reformes-20260101-000000-abcd-db.tar.gz';
    fs.mkdirSync(path.join(t.config.backupDir, 'db_data'), { recursive: true });
    fs.writeFileSync(path.join(t.config.backupDir, 'db_data', legacy), 'ancienne sauvegarde');
    await t.db.insert(backups).values({ name: legacy, type: 'pglite', size: 19, created_at: new Date('2026-01-01T00:00:00Z') });
    const rounds: Backup[][] = [];
    for (let i = 0; i < 3; i++) {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/api/save-db', headers: admin });
      expect(response.statusCode).toBe(200);
      rounds.push(response.json().data);
    }
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/backups', headers: admin })).json().data as Backup[];
    const kept = [...rounds[1], ...rounds[2]];
    expect(listed.map((row) => row.id).sort((a, b) => a - b)).toEqual(kept.map((row) => row.id).sort((a, b) => a - b));
    expect(listed.filter((row) => row.type === 'doc')).toHaveLength(2);
    expect(listed.filter((row) => row.type === t.database.kind)).toHaveLength(2);
    for (const row of rounds[0]) expect(fs.existsSync(path.join(t.config.backupDir, folderOf(row), row.name))).toBe(false);
    expect(listed.map((row) => row.name)).not.toContain(legacy);
    expect(fs.existsSync(path.join(t.config.backupDir, 'db_data', legacy))).toBe(false);
    for (const row of kept) expect(fs.existsSync(path.join(t.config.backupDir, folderOf(row), row.name))).toBe(true);
    expect(fs.readdirSync(path.join(t.config.backupDir, 'docs')).sort()).toEqual(
      kept
        .filter((row) => row.type === 'doc')
        .map((row) => row.name)
        .sort(),
    );
    expect(fs.readdirSync(path.join(t.config.backupDir, 'db_data')).sort()).toEqual(
      kept
        .filter((row) => row.type !== 'doc')
        .map((row) => row.name)
        .sort(),
    );
    const gone = await t.app.inject({ method: 'GET', url: `/api/v1/storage/backups/docs/${rounds[0][0].name}`, headers: admin });
    expect(gone.statusCode).toBe(404);
  });
});
