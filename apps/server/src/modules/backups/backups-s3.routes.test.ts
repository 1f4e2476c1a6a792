import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import tarStream from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { createFileStore } from '../../storage/file-store.ts';
import { startS3Server } from '../../test/s3-server.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { extractDocuments } from './backup-files.ts';

type Backup = { id: number; name: string; type: string; size: number };

/** The entries of a `.tar.gz` held in memory (small test archives), by name. */
async function entriesOf(archive: Buffer): Promise<Map<string, Buffer>> {
  const extract = tarStream.extract();
  const entries = new Map<string, Buffer>();
  const reading = pipeline(Readable.from([archive]), zlib.createGunzip(), extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    entries.set(entry.header.name, Buffer.concat(chunks));
  }
  await reading;
  return entries;
}

/**
 * Issue 31, item 1: with S3_* set, the backup archives go to the bucket (`backups/<folder>/<name>`) and the documents
 * archive is read from the bucket, so that any instance lists, downloads and prunes the same backups.
 */
describe('backups with the documents in an S3 bucket, two instances', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let a: TestApp;
  let b: App;
  let otherDir: string;
  let client: S3Client;

  const keysUnder = async (prefix: string) =>
    ((await client.send(new ListObjectsV2Command({ Bucket: s3.settings.bucket, Prefix: prefix }))).Contents ?? []).map(
      (object) => object.Key,
    );

  beforeAll(async () => {
    s3 = await startS3Server();
    client = new S3Client({ ...s3.settings, credentials: s3.settings });
    a = await createTestApp({ ...s3.env, BACKUP_RETENTION: '2' });
    otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-other-instance-'));
    const config = { ...a.config, storageDir: path.join(otherDir, 'storage'), backupDir: path.join(otherDir, 'backups') };
    b = await buildApp({ config, database: a.database, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    client?.destroy();
    await b?.close();
    await a?.close();
    await s3?.close();
    fs.rmSync(otherDir, { recursive: true, force: true });
  });

  it('archives the documents of the bucket, keeps both archives in it, and serves them from the other instance', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(200_000), Buffer.from('\n%%EOF\n')]);
    const saisie = await a.as('saisie');
    const form = new FormData();
    form.append('name_file', 'Rapport');
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'rapport.pdf');
    const uploaded = await a.app.inject({ method: 'POST', url: '/api/v1/files', headers: saisie.headers, payload: form });
    expect(uploaded.statusCode, uploaded.body).toBe(201);

    const admin = await a.as('admin');
    const saved = await admin.get('api/save-db');
    expect(saved.statusCode, saved.body).toBe(200);
    const [database, documents] = saved.json().data as Backup[];
    expect(await keysUnder('backups/')).toEqual(
      expect.arrayContaining([`backups/db_data/${database.name}`, `backups/docs/${documents.name}`]),
    );
    // Nothing stays on the disk of the instance that made them.
    expect(fs.readdirSync(path.join(a.config.backupDir, '.envoi', 'docs'))).toEqual([]);
    expect(fs.existsSync(path.join(a.config.backupDir, 'docs'))).toBe(false);

    const download = await b.inject({ method: 'GET', url: `/api/v1/storage/backups/docs/${documents.name}`, headers: admin.headers });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(documents.size);
    const entries = await entriesOf(download.rawPayload);
    const stored = [...entries.keys()].find((name) => name.startsWith('./reformes/'));
    expect(stored, [...entries.keys()].join(', ')).toMatch(/^\.\/reformes\/[0-9a-f-]+\.pdf$/);
    expect(entries.get(stored as string)?.equals(pdf)).toBe(true);
    // Every key of the archive is a document: the archives of `backups/` are not archived again.
    expect([...entries.keys()].every((name) => !name.includes('backups'))).toBe(true);

    // The archive puts the documents back, into a folder or a bucket alike.
    const archive = path.join(otherDir, 'docs.tar.gz');
    fs.writeFileSync(archive, download.rawPayload);
    const restoredDir = path.join(otherDir, 'restored');
    expect(await extractDocuments(archive, createFileStore(restoredDir))).toBe(entries.size);
    expect(fs.readFileSync(path.join(restoredDir, (stored as string).slice(2))).equals(pdf)).toBe(true);
  });

  it('keeps BACKUP_RETENTION of each kind in the bucket, and a deletion on B removes the archive for A', async () => {
    const admin = await a.as('admin');
    for (let round = 0; round < 2; round++) expect((await admin.get('api/save-db')).statusCode).toBe(200);
    expect(await keysUnder('backups/docs/')).toHaveLength(2);
    expect(await keysUnder('backups/db_data/')).toHaveLength(2);

    const [newest] = (await admin.get('backups')).json().data as Backup[];
    const removed = await b.inject({ method: 'DELETE', url: `/api/v1/backups/${newest.id}`, headers: admin.headers });
    expect(removed.statusCode, removed.body).toBe(200);
    const folder = newest.type === 'doc' ? 'docs' : 'db_data';
    expect(await keysUnder(`backups/${folder}/`)).not.toContain(`backups/${folder}/${newest.name}`);
    expect((await admin.get(`storage/backups/${folder}/${newest.name}`)).statusCode).toBe(404);
  });

  it('refuses an archive entry that is not a document of ours, before writing anything', async () => {
    const pack = tarStream.pack();
    pack.entry({ name: '../evil.pdf' }, 'x');
    pack.finalize();
    const archive = path.join(otherDir, 'evil.tar.gz');
    await pipeline(pack, zlib.createGzip(), fs.createWriteStream(archive));
    const target = path.join(otherDir, 'evil-target');
    await expect(extractDocuments(archive, createFileStore(target))).rejects.toThrow("Entrée inattendue dans l'archive des documents");
    expect(fs.existsSync(target)).toBe(false);
  });
});
