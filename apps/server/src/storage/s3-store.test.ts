import { createHash, randomBytes } from 'node:crypto';
import net from 'node:net';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../test/s3-server.ts';
import type { DocumentStore } from './file-store.ts';
import { createS3Client, createS3Store } from './s3-store.ts';

describe('documents in an S3 bucket', () => {
  let s3: Awaited<ReturnType<typeof startS3Server>>;
  let store: DocumentStore;

  beforeAll(async () => {
    s3 = await startS3Server();
    store = createS3Store(s3.settings);
  });
  afterAll(() => s3.close());

  it('saves under a generated name, at the key <folder>/<name>, and streams the bytes back as they were', async () => {
    const content = randomBytes(70_000);
    const name = await store.save('reformes', content, 'pdf');
    expect(name).toMatch(/^[0-9a-f-]{36}\.pdf$/);
    const { settings } = s3;
    const client = new S3Client({ ...settings, credentials: settings });
    const head = await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: `reformes/${name}` }));
    client.destroy();
    expect(head.ContentLength).toBe(content.length);

    const chunks: Buffer[] = [];
    for await (const chunk of await store.stream('reformes', name)) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(content)).toBe(true);
    expect((await store.read('reformes', name)).equals(content)).toBe(true);
  });

  it('tells whether a document exists, and removes it (twice without error)', async () => {
    const name = await store.save('signatures', Buffer.from('signature'), 'png');
    expect(await store.exists('signatures', name)).toBe(true);
    expect(await store.exists('reformes', name)).toBe(false);
    await store.remove('signatures', name);
    expect(await store.exists('signatures', name)).toBe(false);
    await store.remove('signatures', name);
  });

  it('refuses a name it did not give', async () => {
    await expect(store.exists('reformes', '../secret.pdf')).rejects.toThrow('Nom de fichier stocké invalide');
  });

  it('streams a 20 MB document down in many chunks, never whole', async () => {
    const content = randomBytes(20 * 1024 * 1024);
    const name = await store.save('reformes', content, 'pdf');
    const hash = createHash('sha256');
    let chunks = 0;
    let largest = 0;
    let total = 0;
    for await (const chunk of await store.stream('reformes', name)) {
      chunks += 1;
      largest = Math.max(largest, chunk.length);
      total += chunk.length;
      hash.update(chunk);
    }
    expect(total).toBe(content.length);
    expect(hash.digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
    expect(chunks).toBeGreaterThan(10);
    expect(largest).toBeLessThan(2 * 1024 * 1024);
  });
});

/** Issue 40, item 13: a bucket that stops answering fails the call well within a job's lease, with its socket closed. */
describe('a hung S3 server', () => {
  it('gives up on a request that gets no answer within seconds, its socket closed', async () => {
    const sockets: net.Socket[] = [];
    // Accepts and reads, answers nothing.
    const server = net.createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => {});
      socket.resume();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const settings = {
      endpoint: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
      bucket: 'reformes',
      region: 'us-east-1',
      accessKeyId: 'cle',
      secretAccessKey: 'secret-de-test',
      forcePathStyle: true,
    };
    const client = createS3Client(settings, { connectionMs: 300, socketMs: 300 });
    try {
      const started = Date.now();
      await expect(
        createS3Store(settings, client).exists('reformes', `${'a'.repeat(8)}-aaaa-4aaa-8aaa-${'a'.repeat(12)}.pdf`),
      ).rejects.toThrow();
      // The SDK retries twice more: three short waits, not the default of none.
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(sockets.length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sockets.every((socket) => socket.destroyed || socket.readableEnded)).toBe(true);
    } finally {
      client.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 20_000);
});
