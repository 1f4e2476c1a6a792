import { type AddressInfo, connect, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PUBLIC_EXPORT_MESSAGES } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createPublicService, MAX_OPEN_EXPORTS } from './public.service.ts';

const BULK = 10_000;
/** About 2 000 characters, accents and CSV separators included, in three columns of each bulk reform. */
const LONG_TEXT = `${'Texte long accentué; "cité" à l’échelle nationale, '.repeat(40)}fin`;

// A collection on demand lets the test read the memory a download really holds, not garbage waiting for the collector.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

describe('open-data downloads with thousands of published reforms (issue 28)', () => {
  let t: TestApp;
  let base: string;
  let address = 0;
  /** Each download from its own address (TRUST_PROXY): the per-address limit has its own test. */
  const download = (path: string, init: RequestInit = {}) =>
    fetch(`${base}/api/v1/reformes/public/${path}`, {
      ...init,
      headers: { 'x-forwarded-for': `10.29.${address >> 8}.${address++ & 255}` },
    });
  const checkedOut = () => t.database.pool.totalCount - t.database.pool.idleCount;
  const until = async (condition: () => boolean | Promise<boolean>) => {
    for (let i = 0; i < 100; i++) {
      if (await condition()) return true;
      await sleep(50);
    }
    return condition();
  };

  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: 'true',
      JWT_SECRET: 'un-secret-de-test-long-de-plus-de-32-caracteres',
      METRICS_TOKEN: 'un-jeton-des-metriques-de-plus-de-32-caracteres',
    });
    // Many reforms share a start date, so that batches end in the middle of a date and the id decides.
    await t.db.execute(sql`
      insert into reformes (libref, typeref, nature_id, objectif_glob, popul_cible, couverture_id, struct_impl, date_debut, date_fin,
        periodexe, is_published, is_active, stage, structure_id, created_by)
      select 'Réforme "' || i || '"; en masse', 'SECTORIELLE', (select min(id) from natures), ${LONG_TEXT}, ${LONG_TEXT},
        (select min(id) from covers), ${LONG_TEXT}, date '2020-01-01' + (i % 37), date '2035-12-31', 'Du 01/01/2020 au 31/12/2035',
        true, true, 3, (select min(id) from structures), (select min(id) from users)
      from generate_series(1, ${BULK}) as i`);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const server = t.app.server.address();
    if (server === null || typeof server === 'string') throw new Error('no TCP address');
    base = `http://127.0.0.1:${server.port}`;
  }, 120_000);
  afterAll(async () => {
    // fetch's keep-alive sockets live in this same process: without this, closing waits for their timeout (72 s).
    t.app.server.closeAllConnections();
    await t.close();
  });

  it('lists every published reform once, in the public order, across batch boundaries', async () => {
    const expected = (
      await t.db.execute<{ id: number }>(sql`select id from reformes where is_published and is_active order by date_debut desc, id desc`)
    ).rows.map((row) => row.id);
    expect(expected.length).toBeGreaterThan(BULK);
    const json = (await (await download('export.json')).json()) as Array<{ Identifiant: number }>;
    expect(json.map((row) => row.Identifiant)).toEqual(expected);
    const csv = (await (await download('export.csv')).text()).slice(1).split('\r\n').slice(1, -1);
    expect(csv.map((line) => Number(line.split(';')[0]))).toEqual(expected);

    // Whatever the batch size, the same rows in the same order.
    const service = createPublicService(t.db, { exportBatch: 7 });
    const file = await service.openExport({ typeref: 'SECTORIELLE' }, '10.29.255.1');
    const ids: number[] = [];
    for await (const rows of await file.batches()) {
      expect(rows.length).toBeLessThanOrEqual(7);
      ids.push(...rows.map((row) => row.id));
      if (ids.length > 100) break;
    }
    expect(ids.slice(0, 100)).toEqual(json.map((row) => row.Identifiant).slice(0, 100));
    expect(checkedOut()).toBe(0);
  }, 60_000);

  it('keeps the heap flat while a slow reader downloads the file', async () => {
    for (const format of ['json', 'csv']) {
      collect();
      const before = process.memoryUsage().heapUsed;
      const response = await download(`export.${format}`);
      expect(response.status).toBe(200);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let size = 0;
      let sinceSample = 0;
      let peak = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        sinceSample += value.byteLength;
        if (sinceSample >= 1024 * 1024) {
          sinceSample = 0;
          // The reader is slow: the server must wait for it rather than read ahead.
          await sleep(5);
          collect();
          peak = Math.max(peak, process.memoryUsage().heapUsed - before);
        }
      }
      expect(size).toBeGreaterThan(50 * 1024 * 1024);
      // Building the file in memory would hold all of it (more as UTF-16): a streamed one holds about a batch.
      expect(peak).toBeLessThan(size / 3);
      if (process.env.REPORT_EXPORT_MEMORY) console.info(`${format}: ${size} bytes, heap peak +${peak} bytes`);
    }
  }, 120_000);

  it('holds no pooled client while its readers are slow: four downloads at once, then more than MAX_OPEN_EXPORTS refused', async () => {
    const cut = Array.from({ length: MAX_OPEN_EXPORTS }, () => new AbortController());
    const stalled = await Promise.all(cut.map((controller) => download('export.json', { signal: controller.signal })));
    for (const response of stalled) expect(response.status).toBe(200);
    // Each has read its first batch and waits for its reader, with no connection of the pool.
    expect(await until(() => checkedOut() === 0)).toBe(true);

    const refused = await download('export.csv');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toMatchObject({ message: PUBLIC_EXPORT_MESSAGES.busy });

    // One reads a little before it is cut, the others nothing; their places come back.
    await (stalled[0].body as ReadableStream<Uint8Array>).getReader().read();
    for (const controller of cut) controller.abort();
    const [{ open }] = (
      await t.db.execute<{ open: number }>(
        sql`select count(*)::int as open from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
      )
    ).rows;
    expect(open).toBe(0);
    let again: Response | undefined;
    expect(
      await until(async () => {
        again = await download('export.json?typeref=TRANSVERSALE');
        return again.status === 200;
      }),
    ).toBe(true);
    expect(Array.isArray(await (again as Response).json())).toBe(true);
  }, 60_000);

  describe('per client, and readers that stop reading (issue 40, item 6)', () => {
    const STALL_MS = 400;
    let stalling: Awaited<ReturnType<typeof buildApp>>;
    /** The server's end of each connection, by the client's port. */
    const serverEnds = new Map<number, Socket>();
    const portOf = (app: { server: { address(): unknown } }) => (app.server.address() as AddressInfo).port;
    /** A client that asks for the whole file, reads the first chunk of its answer (200) and then nothing. */
    const stoppedReader = (port: number, client: string) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(`GET /api/v1/reformes/public/export.json HTTP/1.1\r\nHost: test\r\nX-Forwarded-For: ${client}\r\n\r\n`);
        });
        socket.once('data', (chunk) => {
          socket.pause();
          if (String(chunk).startsWith('HTTP/1.1 200 ')) resolve(socket);
          else reject(new Error(String(chunk).split('\r\n')[0]));
        });
        socket.on('error', reject);
      });
    const small = (port: number, client: string) =>
      fetch(`http://127.0.0.1:${port}/api/v1/reformes/public/export.csv?typeref=TRANSVERSALE`, { headers: { 'x-forwarded-for': client } });

    beforeAll(async () => {
      stalling = await buildApp({ config: t.config, database: t.database, logger: false, downloadStallMs: STALL_MS });
      await stalling.listen({ port: 0, host: '127.0.0.1' });
      stalling.server.on('connection', (socket: Socket) => serverEnds.set(socket.remotePort as number, socket));
    });
    afterAll(async () => {
      stalling.server.closeAllConnections();
      await stalling.close();
    });

    it('serves at most two downloads at once to one client (the third 429, Retry-After, French), others still', async () => {
      const port = portOf(t.app);
      const sockets = [await stoppedReader(port, '10.30.0.1'), await stoppedReader(port, '10.30.0.1')];
      try {
        // Both have started: each holds its place until it ends.
        const third = await small(port, '10.30.0.1');
        expect(third.status).toBe(429);
        expect(third.headers.get('retry-after')).toBe('5');
        expect(await third.json()).toMatchObject({ message: PUBLIC_EXPORT_MESSAGES.busyForClient });
        const other = await small(port, '10.30.0.2');
        expect(other.status).toBe(200);
        await other.text();
      } finally {
        for (const socket of sockets) socket.destroy();
      }
      // A client that goes frees its places.
      expect(await until(async () => (await small(port, '10.30.0.1')).status === 200)).toBe(true);
    });

    it('ends a download whose client reads nothing for the stall timeout, and frees its place', async () => {
      const port = portOf(stalling);
      const started = performance.now();
      const sockets = [await stoppedReader(port, '10.30.0.3'), await stoppedReader(port, '10.30.0.3')];
      try {
        // The server ends them itself: the clients never close.
        expect(await until(() => sockets.every((socket) => serverEnds.get(socket.localPort as number)?.destroyed === true))).toBe(true);
        expect(performance.now() - started).toBeGreaterThanOrEqual(STALL_MS);
        const again = await small(port, '10.30.0.3');
        expect(again.status).toBe(200);
        expect(await again.text()).toContain('"Identifiant";"Libellé"');
      } finally {
        for (const socket of sockets) socket.destroy();
      }
    });
  });
});
