/**
 * Child process that owns the embedded PGlite database and serves it over the Postgres
 * wire protocol on loopback, so the app speaks node-postgres as in production and
 * PGlite's synchronous work never blocks the app's event loop (architecture §1).
 */
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { PGLITE_EXTENSIONS } from './pglite-options.ts';

const dataDir = process.env.PGLITE_DATA_DIR;
if (!dataDir || !process.send) {
  console.error('pglite-process doit être lancé par le serveur Réformes (PGLITE_DATA_DIR manquant).');
  process.exit(1);
}

/**
 * PGlite starts with a server's defaults (shared_buffers 128MB, maintenance_work_mem 64MB,
 * max_connections 100...) inside a WebAssembly heap that can grow but never shrinks, and whose touched
 * pages stay resident: the child sat at 800+ MB. One backend serving one pooled client needs far less;
 * the operating system's page cache still holds the data files (docs/decisions.md, "Embedded memory").
 */
const MEMORY_SETTINGS = (process.env.PGLITE_MEM ?? 'shared_buffers=16MB wal_buffers=1MB temp_buffers=2MB work_mem=4MB maintenance_work_mem=16MB max_connections=5').split(' ').filter(Boolean);
const startParams = [...PGlite.defaultStartParams, ...MEMORY_SETTINGS.flatMap((setting) => ['-c', setting])];

const db = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS, startParams });
// node-postgres drops a client after a failed query and reconnects at once, before the old
// socket is detached: room for a few connections keeps that reconnection from being refused.
// The app's pool still holds one client, so transactions never interleave.
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
await server.start();
const port = Number(server.getServerConn().split(':').pop());

let closing: Promise<void> | undefined;
function shutdown(): Promise<void> {
  closing ??= (async () => {
    await server.stop().catch(() => undefined);
    // PGlite never fsyncs: a checkpoint flushes everything to the data files before we leave.
    await db.query('CHECKPOINT').catch(() => undefined);
    await db.close().catch(() => undefined);
    process.exit(0);
  })();
  return closing;
}

process.on('message', (message: unknown) => {
  if (message === 'shutdown') void shutdown();
  const request = message as { type?: string; id?: number };
  if (request.type === 'snapshot') {
    // A backup: the data directory as a gzipped tarball, sent back over IPC.
    db.dumpDataDir('gzip')
      .then(async (blob) =>
        process.send?.({ type: 'snapshot', id: request.id, data: Buffer.from(await blob.arrayBuffer()).toString('base64') }),
      )
      .catch((error: Error) => process.send?.({ type: 'snapshot', id: request.id, error: error.message }));
  }
});
// The parent died (even by kill -9): close the database cleanly rather than linger.
process.on('disconnect', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
// Ctrl-C reaches the whole process group; the parent drives the shutdown.
process.on('SIGINT', () => undefined);

process.send({ type: 'ready', port });
