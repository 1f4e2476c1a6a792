import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../test/s3-server.ts';
import { copyDocuments } from './copy-documents.ts';
import { createFileStore, type DocumentStore } from './file-store.ts';
import { createS3Store } from './s3-store.ts';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** Issue 31, item 1: the command that moves an existing STORAGE_DIR into the bucket, every copy checked by SHA-256. */
describe('copying the documents of STORAGE_DIR into the bucket', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let dir: string;
  let local: DocumentStore;
  let bucket: DocumentStore;
  const contents = new Map<string, Buffer>();

  beforeAll(async () => {
    s3 = await startS3Server();
    bucket = createS3Store(s3.settings);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-copy-'));
    local = createFileStore(dir);
    for (const [folder, size, extension] of [
      ['reformes', 5 * 1024 * 1024, 'pdf'],
      ['reformes', 10_000, 'pdf'],
      ['signatures', 2_000, 'png'],
    ] as const) {
      const content = randomBytes(size);
      contents.set(`${folder}/${await local.save(folder, content, extension)}`, content);
    }
  });
  afterAll(async () => {
    await s3?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies each document under the same key, byte for byte, and sends nothing again on a second run', async () => {
    const first = await copyDocuments(local, bucket);
    expect(first).toEqual({ copied: 3, present: 0, failed: [] });
    for (const [key, content] of contents) {
      const [folder, name] = key.split('/');
      expect((await bucket.read(folder, name)).equals(content)).toBe(true);
    }
    expect(await copyDocuments(local, bucket)).toEqual({ copied: 0, present: 3, failed: [] });
  });

  it('sends again a document whose copy in the bucket differs', async () => {
    const [key] = contents.keys();
    const [folder, name] = key.split('/');
    const damaged = Buffer.from('abîmé');
    await bucket.put(folder, name, Readable.from([damaged]), damaged.length);
    expect(await copyDocuments(local, bucket)).toEqual({ copied: 1, present: 2, failed: [] });
    expect((await bucket.read(folder, name)).equals(contents.get(key) as Buffer)).toBe(true);
  });

  it('reports a copy that does not read back as the original, by its key and its SHA-256', async () => {
    const target = createS3Store({ ...s3.settings, bucket: s3.settings.bucket });
    // A store that loses the last byte of what it is given: the check after the copy must see it.
    const lossy: DocumentStore = {
      ...target,
      exists: async () => false,
      put: async (folder, name, content, size) => {
        const bytes: Buffer[] = [];
        for await (const chunk of content) bytes.push(chunk as Buffer);
        await target.put(folder, name, Readable.from([Buffer.concat(bytes).subarray(0, size - 1)]), size - 1);
      },
    };
    const report = await copyDocuments(local, lossy);
    expect(report.copied).toBe(0);
    expect(report.failed.map((failure) => failure.key).sort()).toEqual([...contents.keys()].sort());
    expect(report.failed[0].reason).toMatch(/^empreinte SHA-256 différente après la copie \([0-9a-f]{64} au lieu de [0-9a-f]{64}\)$/);
  });

  it('runs as `npm run copy-documents`: needs the S3 settings, refuses to run without them (exit 1), says what it did', async () => {
    const run = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/copy-documents.ts', dir], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', DATA_DIR: dir, ...env },
      }).then(
        ({ stdout }) => ({ code: 0, output: stdout }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
      );
    const withoutBucket = await run({});
    expect(withoutBucket.code).toBe(1);
    expect(withoutBucket.output).toContain(
      'Les réglages S3 (S3_ENDPOINT, S3_BUCKET, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) sont requis',
    );

    // The lossy store above left truncated copies in the bucket: the command puts the originals back.
    const done = await run(s3.env);
    expect(done.output).toContain(`Copie des documents de ${dir} vers le compartiment S3 documents…`);
    expect(done.output).toContain("3 documents copiés et vérifiés (SHA-256), 0 déjà présents à l'identique, 0 en échec.");
    expect(done.code).toBe(0);
  }, 60_000);
});
