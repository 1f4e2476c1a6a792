import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { startS3Server } from '../../test/s3-server.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * Issue 31, item 1: with the S3_* settings the documents are in the bucket, not on an instance's disk, so an attachment
 * uploaded through one instance is downloaded from another on the same database.
 */
describe('attachments in an S3 bucket, shared by two instances', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let a: TestApp;
  let b: App;
  let otherStorageDir: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    a = await createTestApp(s3.env);
    otherStorageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-other-storage-'));
    b = await buildApp({ config: { ...a.config, storageDir: otherStorageDir }, database: a.database, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await s3?.close();
    fs.rmSync(otherStorageDir, { recursive: true, force: true });
  });

  it('downloads from instance B, byte for byte, a PDF uploaded through instance A, neither keeping it on disk', async () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(3 * 1024 * 1024), Buffer.from('\n%%EOF\n')]);
    const saisie = await a.as('saisie');
    const form = new FormData();
    form.append('name_file', 'Étude d’impact');
    form.append('file', new Blob([pdf], { type: 'application/pdf' }), 'etude.pdf');
    const uploaded = await a.app.inject({ method: 'POST', url: '/api/v1/files', headers: saisie.headers, payload: form });
    expect(uploaded.statusCode, uploaded.body).toBe(201);

    const downloaded = await b.inject({ method: 'GET', url: `/api/v1/files/${uploaded.json().data.id}`, headers: saisie.headers });
    expect(downloaded.statusCode, downloaded.body.slice(0, 200)).toBe(200);
    expect(downloaded.headers['content-type']).toBe('application/pdf');
    expect(downloaded.rawPayload.equals(pdf)).toBe(true);
    expect(fs.existsSync(path.join(a.config.storageDir, 'reformes'))).toBe(false);
    expect(fs.readdirSync(otherStorageDir)).toEqual([]);
  });
});
