/**
 * Child process that owns the embedded PGlite database and serves it over the Postgres
 * wire protocol on loopback, so the app speaks node-postgres as in production and
 * PGlite's synchronous work never blocks the app's event loop (architecture §1).
 */
import fs from 'node:fs';
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
 * pages stay resident: the child sat at 800+ MB. One backend serving one pooled client needs far less.
 * shared_buffers: at 100 000 reforms, 64MB served the lists as fast as 128MB and 50 % faster than 16MB (a
 * block read outside them goes through JavaScript to the page cache). docs/decisions.md, "Embedded database memory".
 */
const MEMORY_SETTINGS = [
  'shared_buffers=64MB',
  'wal_buffers=1MB',
  'temp_buffers=2MB',
  'work_mem=4MB',
  'maintenance_work_mem=16MB',
  'max_connections=5',
];
const startParams = [...PGlite.defaultStartParams, ...MEMORY_SETTINGS.flatMap((setting) => ['-c', setting])];

const db = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS, startParams });
if (process.env.PGLITE_MODE === 'initdb') {
  // A new data directory: PGlite.create ran initdb; the parent now starts the serving process (client.ts).
  await db.close();
  process.exit(0);
}
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
  const request = message as { type?: string; id?: number; file?: string };
  if (request.type === 'snapshot' && request.file) {
    // A backup: the data directory as a gzipped tarball, written to the file the parent named (a file rather
    // than an IPC message: a base64 copy of a large database would sit in both processes' JavaScript heaps).
    const file = request.file;
    db.dumpDataDir('gzip')
      .then(async (blob) => fs.promises.writeFile(file, Buffer.from(await blob.arrayBuffer()), { mode: 0o600 }))
      .then(() => process.send?.({ type: 'snapshot', id: request.id }))
      .catch((error: Error) => process.send?.({ type: 'snapshot', id: request.id, error: error.message }));
  }
});
// The parent died (even by kill -9): close the database cleanly rather than linger.
process.on('disconnect', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
// Ctrl-C reaches the whole process group; the parent drives the shutdown.
process.on('SIGINT', () => undefined);

process.send({ type: 'ready', port });
