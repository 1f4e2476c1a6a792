import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.ts';
import { connectEmbedded, connectPostgres } from '../../db/client.ts';
import { createScratchDatabase, dropScratchDatabase } from '../../test/scratch-database.ts';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.ts';
import { testServerUrl } from '../../test/test-database.ts';
import { decryptBackup } from './backup-crypto.ts';
import { writeLogicalBackup } from './backup-files.ts';

/**
 * Backups, attachments and mails are readable by the server's user only, and BACKUP_ENCRYPTION_KEY encrypts
 * the backups: unreadable without the key, restored by `npm run restore` with it, refused clearly without it.
 * On the embedded database by default; on PostgreSQL when DATABASE_URL is set (restored into a new database). The
 * embedded database's encrypted dump (`….jsonl.gz.enc`) is also restored into PostgreSQL in both cases.
 */

const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const SLOW = 240_000;
const SERVER_URL = process.env.DATABASE_URL;
const KEY = randomBytes(32).toString('hex');
const JWT_SECRET = 'secret-des-sauvegardes-chiffrees-0123456789';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% Piece confidentielle\ntrailer << /Root 1 0 R >>\n%%EOF\n');

interface Backup {
  name: string;
  type: string;
  size: number;
}

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

async function uploadPdf(t: TestApp, headers: Record<string, string>) {
  const form = new FormData();
  form.append('name_file', 'Pièce confidentielle');
  form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'piece.pdf');
  const response = await t.app.inject({ method: 'POST', url: '/api/v1/files', headers, payload: form });
  expect(response.statusCode).toBe(201);
}

async function saveBackup(t: TestApp): Promise<Array<Backup & { file: string }>> {
  const admin = bearer((await t.login('admin@reformes.test')).access_token);
  const response = await t.app.inject({ method: 'GET', url: '/api/v1/api/save-db', headers: admin });
  expect(response.statusCode).toBe(200);
  return (response.json().data as Backup[]).map((row) => ({
    ...row,
    file: path.join(t.config.backupDir, row.type === 'doc' ? 'docs' : 'db_data', row.name),
  }));
}

/** Runs `node --import tsx apps/server/src/cli/restore.ts ...args` from the repository root. */
function runRestore(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const inherited = { ...process.env };
  for (const name of ['DATABASE_URL', 'DATA_DIR', 'STORAGE_DIR', 'BACKUP_DIR', 'BACKUP_ENCRYPTION_KEY']) delete inherited[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/restore.ts', ...args], {
      cwd: REPO_ROOT,
      env: { ...inherited, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, output }));
  });
}

describe('file modes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates stored files, outbox mails and backups 0600, in folders 0700', async () => {
    await uploadPdf(t, bearer((await t.login('saisie@reformes.test')).access_token));
    const forgot = await t.app.inject({ method: 'POST', url: '/api/v1/api/forgot-password', payload: { email: 'saisie@reformes.test' } });
    expect(forgot.statusCode).toBe(200);
    const made = await saveBackup(t);

    const stored = path.join(t.config.storageDir, 'reformes');
    const mails = fs.readdirSync(t.config.outboxDir);
    expect(mails.length).toBeGreaterThan(0);
    const files = [
      ...fs.readdirSync(stored).map((name) => path.join(stored, name)),
      ...mails.map((name) => path.join(t.config.outboxDir, name)),
      ...made.map((row) => row.file),
    ];
    for (const file of files) expect(modeOf(file), file).toBe(0o600);
    const folders = [t.config.storageDir, stored, t.config.outboxDir, t.config.backupDir, ...made.map((row) => path.dirname(row.file))];
    for (const folder of folders) expect(modeOf(folder), folder).toBe(0o700);
    // Without a key, nothing changes: gzip and pg_dump files under their usual names.
    expect(made.map((row) => row.name).every((name) => !name.endsWith('.enc'))).toBe(true);
  });
});

describe(`encrypted backups (BACKUP_ENCRYPTION_KEY, ${SERVER_URL ? 'PostgreSQL' : 'embedded database'})`, () => {
  let t: TestApp;
  let made: Array<Backup & { file: string }>;
  const tmpDirs: string[] = [];
  const scratchUrls: string[] = [];
  let restoreUrl: string | undefined;

  const freshDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-encrypted-'));
    tmpDirs.push(dir);
    return dir;
  };
  const installation = (dataDir: string, extra: Record<string, string> = {}) => ({
    DATA_DIR: dataDir,
    ...(restoreUrl ? { DATABASE_URL: restoreUrl, JWT_SECRET } : {}),
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp({ BACKUP_ENCRYPTION_KEY: KEY });
    await uploadPdf(t, bearer((await t.login('saisie@reformes.test')).access_token));
    made = await saveBackup(t);
    if (SERVER_URL) restoreUrl = await createScratchDatabase(SERVER_URL, 'reformes_encrypted');
  }, SLOW);

  afterAll(async () => {
    await t?.close();
    if (SERVER_URL && restoreUrl) await dropScratchDatabase(SERVER_URL, restoreUrl);
    for (const url of scratchUrls) await dropScratchDatabase(testServerUrl(), url);
    for (const dir of tmpDirs) fs.rmSync(dir, { recursive: true, force: true });
  }, SLOW);

  it('writes both files encrypted (….enc, 0600): neither gzip nor pg_dump can read them', async () => {
    expect(made.map((row) => row.name.endsWith('.enc'))).toEqual([true, true]);
    for (const row of made) {
      const bytes = fs.readFileSync(row.file);
      expect(modeOf(row.file)).toBe(0o600);
      expect(bytes.length).toBe(row.size);
      expect(bytes.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))).toBe(false);
      expect(bytes.subarray(0, 5).toString('latin1')).not.toBe('PGDMP');
      expect(() => zlib.gunzipSync(bytes)).toThrow();
      expect(bytes.includes('Piece confidentielle')).toBe(false);
    }
  });

  it('lists and downloads them as before, and they decrypt with the key into the usual dump and archive', async () => {
    const admin = bearer((await t.login('admin@reformes.test')).access_token);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/backups', headers: admin })).json().data as Backup[];
    expect(listed.map((row) => row.name).sort()).toEqual(made.map((row) => row.name).sort());
    for (const row of made) {
      const folder = row.type === 'doc' ? 'docs' : 'db_data';
      const download = await t.app.inject({ method: 'GET', url: `/api/v1/storage/backups/${folder}/${row.name}`, headers: admin });
      expect(download.statusCode).toBe(200);
      expect(download.headers['content-disposition']).toBe(`attachment; filename="${row.name}"`);
      expect(download.rawPayload.equals(fs.readFileSync(row.file))).toBe(true);
    }

    const dir = freshDir();
    const dump = made.find((row) => row.type !== 'doc') as Backup & { file: string };
    await decryptBackup(dump.file, path.join(dir, 'db'), Buffer.from(KEY, 'hex'));
    const plain = fs.readFileSync(path.join(dir, 'db'));
    if (t.database.kind === 'embedded') {
      expect(dump.name).toMatch(/-db\.jsonl\.gz\.enc$/);
      expect(JSON.parse(zlib.gunzipSync(plain).toString('utf8').split('\n', 1)[0])).toMatchObject({ format: 'reformes-dump' });
    } else {
      expect(dump.name).toMatch(/-db\.dump\.enc$/);
      expect(plain.subarray(0, 5).toString('latin1')).toBe('PGDMP');
    }
    const docs = made.find((row) => row.type === 'doc') as Backup & { file: string };
    await decryptBackup(docs.file, path.join(dir, 'docs.tar.gz'), Buffer.from(KEY, 'hex'));
    const entries: string[] = [];
    await tar.t({ file: path.join(dir, 'docs.tar.gz'), onReadEntry: (entry) => entries.push(entry.path) });
    expect(entries.some((entry) => /^\.\/reformes\/[0-9a-f-]+\.pdf$/.test(entry))).toBe(true);
  });

  it(
    'refuses to restore without the key or with another key, says why, and changes nothing',
    async () => {
      const dump = made.find((row) => row.type !== 'doc') as Backup & { file: string };
      const target = freshDir();
      const missing = await runRestore([dump.file], installation(target));
      expect(missing.code).not.toBe(0);
      expect(missing.output).toContain(
        `La sauvegarde ${dump.name} est chiffrée : définissez BACKUP_ENCRYPTION_KEY (la clé utilisée pour la sauvegarde).`,
      );
      const wrong = await runRestore([dump.file], installation(target, { BACKUP_ENCRYPTION_KEY: randomBytes(32).toString('hex') }));
      expect(wrong.code).not.toBe(0);
      expect(wrong.output).toContain(
        `Impossible de déchiffrer ${dump.name} : BACKUP_ENCRYPTION_KEY n'est pas la clé de cette sauvegarde, ou le fichier est altéré.`,
      );
      // No database, no documents, no decrypted leftover.
      expect(fs.readdirSync(target)).toEqual([]);
    },
    SLOW,
  );

  it(
    'restores with the key: the same accounts and the same attachment bytes',
    async () => {
      const dump = made.find((row) => row.type !== 'doc') as Backup & { file: string };
      const target = freshDir();
      const { code, output } = await runRestore([dump.file], installation(target, { BACKUP_ENCRYPTION_KEY: KEY }));
      expect(output).toContain(`Base restaurée depuis ${dump.name}.`);
      expect(output).toContain('Documents restaurés dans');
      expect(code).toBe(0);
      expect(fs.readdirSync(target).filter((name) => name.startsWith('.restauration'))).toEqual([]);

      const [attachment] = fs.readdirSync(path.join(target, 'storage', 'reformes'));
      expect(fs.readFileSync(path.join(target, 'storage', 'reformes', attachment)).equals(PDF)).toBe(true);
      const database = restoreUrl
        ? connectPostgres(restoreUrl)
        : await connectEmbedded(loadConfig({ DATA_DIR: target }).embeddedDir, { onLog: () => undefined });
      try {
        const { rows } = await database.pool.query<{ email: string }>('select email from users order by email');
        expect(rows.map((row) => row.email)).toContain('admin@reformes.test');
      } finally {
        await database.close();
      }
    },
    SLOW,
  );
  it(
    "restores the embedded database's encrypted dump (….jsonl.gz.enc) into PostgreSQL with the key",
    async () => {
      const made = (await saveBackup(t)).find((row) => row.type !== 'doc') as Backup & { file: string };
      let dump = made.file;
      if (!dump.endsWith('.jsonl.gz.enc')) {
        // On PostgreSQL the app writes pg_dump's format: the embedded database's dump is written beside it.
        dump = made.file.replace(/-db\.dump\.enc$/, '-db.jsonl.gz.enc');
        const client = await t.database.pool.connect();
        try {
          await writeLogicalBackup(client, dump, Buffer.from(KEY, 'hex'));
        } finally {
          client.release();
        }
      }
      expect(
        fs
          .readFileSync(dump)
          .subarray(0, 2)
          .equals(Buffer.from([0x1f, 0x8b])),
      ).toBe(false);
      const url = await createScratchDatabase(testServerUrl(), 'reformes_encrypted');
      scratchUrls.push(url);
      const target = freshDir();
      const { code, output } = await runRestore([dump], { DATA_DIR: target, DATABASE_URL: url, JWT_SECRET, BACKUP_ENCRYPTION_KEY: KEY });
      expect(output).toContain(`Base restaurée depuis ${path.basename(dump)}.`);
      expect(output).toContain('Documents restaurés dans');
      expect(code).toBe(0);
      expect(fs.readdirSync(target).filter((name) => name.startsWith('.restauration'))).toEqual([]);
      const database = connectPostgres(url);
      try {
        const { rows } = await database.pool.query<{ n: number }>('select count(*)::int as n from reforme_files');
        expect(rows[0].n).toBe((await t.database.pool.query('select count(*)::int as n from reforme_files')).rows[0].n);
      } finally {
        await database.close();
      }
    },
    SLOW,
  );
});
