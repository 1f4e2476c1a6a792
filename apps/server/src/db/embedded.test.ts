import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/built-server.ts';
import { createLegacyPgliteFixture } from '../test/legacy-pglite-fixture.ts';
import { isAlive } from './data-dir-lock.ts';

/**
 * The embedded mode as an operator runs it: real `node apps/server/src/main.ts` processes on a
 * data folder, each with its PostgreSQL cluster (embedded-cluster.ts).
 */

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const MAIN = 'apps/server/src/main.ts';
const SLOW = 150_000;
const PASSWORD = 'Reformes2026!';

interface Server {
  process: ChildProcess;
  port: number;
  dataDir: string;
  output: () => string;
  exited: Promise<number | null>;
}

const started: Server[] = [];
const dataDirs: string[] = [];

function freshDataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-embedded-'));
  dataDirs.push(dir);
  return dir;
}

const lockPathOf = (dataDir: string) => path.join(dataDir, 'postgres.lock');

function readLock(dataDir: string): { pid: number; childPid?: number } | undefined {
  try {
    return JSON.parse(fs.readFileSync(lockPathOf(dataDir), 'utf8'));
  } catch {
    return undefined;
  }
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

async function startServer(dataDir: string, { ownGroup = false } = {}): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', NODE_ENV: 'development' };
  // Embedded mode, whatever the suite runs against; no web build, no real mail.
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  env.WEB_DIST = path.join(dataDir, 'no-web');
  // ownGroup: a process group of its own, as a terminal gives a command, so that a Ctrl-C can be sent to it all.
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const server: Server = { process: child, port, dataDir, output: () => output, exited };
  started.push(server);
  return server;
}

const isExited = (server: Server) => server.process.exitCode !== null || server.process.signalCode !== null;

async function waitHealthy(server: Server) {
  await waitFor(
    async () => {
      if (isExited(server)) throw new Error(`server exited (${server.process.exitCode}) before it was ready:\n${server.output()}`);
      try {
        const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/health`);
        return response.status === 200;
      } catch {
        return false;
      }
    },
    120_000,
    `GET /api/v1/health on port ${server.port}`,
  );
}

async function startHealthy(dataDir: string): Promise<Server> {
  const server = await startServer(dataDir);
  await waitHealthy(server);
  return server;
}

/** The few fields these tests read; the assertions check the rest. */
interface ApiBody {
  message: string;
  data: { access_token: string; lastname: string; [field: string]: unknown };
}

async function call(server: Server, method: string, url: string, options: { token?: string; body?: unknown } = {}) {
  const response = await fetch(`http://127.0.0.1:${server.port}/api/v1/${url}`, {
    method,
    headers: {
      accept: 'application/json',
      ...(options.body ? { 'content-type': 'application/json' } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as ApiBody };
}

async function signIn(server: Server, email: string): Promise<string> {
  const response = await call(server, 'POST', 'api/login', { body: { email, password: PASSWORD, device: 'web' } });
  expect(response.status).toBe(200);
  return response.body.data.access_token;
}

async function stop(server: Server, timeoutMs = 10_000): Promise<number | null> {
  if (isExited(server)) return server.process.exitCode;
  server.process.kill('SIGTERM');
  return Promise.race([
    server.exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no exit within ${timeoutMs} ms after SIGTERM`)), timeoutMs)),
  ]);
}

afterAll(async () => {
  for (const server of started) {
    const childPid = readLock(server.dataDir)?.childPid;
    if (!isExited(server)) {
      server.process.kill('SIGKILL');
      await server.exited;
    }
    // A cluster orphaned by a killed server (and not restarted) is stopped here.
    if (childPid && isAlive(childPid)) {
      process.kill(childPid, 'SIGINT');
      await waitFor(() => !isAlive(childPid), 15_000, `PostgreSQL ${childPid} to exit`).catch(() => process.kill(childPid, 'SIGKILL'));
    }
  }
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
}, SLOW);

describe('embedded PostgreSQL mode (real processes)', () => {
  let running: Server | undefined;

  it(
    'refuses a second server on the same data folder with a clear message, and leaves the first one running',
    async () => {
      const dataDir = freshDataDir();
      const first = await startHealthy(dataDir);
      const lock = readLock(dataDir);
      expect(lock?.pid).toBe(first.process.pid);
      expect(lock?.childPid).toEqual(expect.any(Number));

      const second = await startServer(dataDir);
      const code = await second.exited;
      expect(code).not.toBe(0);
      expect(code).not.toBeNull();
      expect(second.output()).toContain('déjà utilisée');
      expect(second.output()).toContain(String(first.process.pid));

      // The first server and its lock are untouched; the next test stops it.
      expect(readLock(dataDir)).toEqual(lock);
      expect((await call(first, 'GET', 'health')).status).toBe(200);
      running = first;
    },
    SLOW,
  );

  it(
    'stops cleanly on SIGTERM within 10 s (exit code 0), stops its PostgreSQL and removes the lock file',
    async () => {
      // The server left running by the previous test, or a new one.
      const server = running && !isExited(running) ? running : await startHealthy(freshDataDir());
      const { dataDir } = server;
      expect((await call(server, 'GET', 'health')).status).toBe(200);
      const childPid = readLock(dataDir)?.childPid as number;
      expect(isAlive(childPid)).toBe(true);

      const startedAt = Date.now();
      expect(await stop(server, 10_000)).toBe(0);
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      expect(fs.existsSync(lockPathOf(dataDir))).toBe(false);
      await waitFor(() => !isAlive(childPid), 5_000, 'PostgreSQL to exit');
      expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
      expect(server.output()).toContain('arrêt terminé');
    },
    SLOW,
  );

  it(
    'keeps acknowledged data after kill -9 of the server: a restart on the same folder shows it',
    async () => {
      const dataDir = freshDataDir();
      const server = await startHealthy(dataDir);
      const token = await signIn(server, 'admin@reformes.test');
      const update = await call(server, 'POST', 'api/user-update', {
        token,
        body: { lastname: 'Après-Crash', firstname: 'Claire', email: 'admin@reformes.test', phone: '0612345678' },
      });
      expect(update.status).toBe(200);
      expect(update.body.data.lastname).toBe('Après-Crash');

      const childPid = readLock(dataDir)?.childPid as number;
      expect(childPid).toEqual(expect.any(Number));
      server.process.kill('SIGKILL');
      await server.exited;
      // PostgreSQL outlives the killed server; the lock is stale: the next server stops that orphan and takes over.
      expect(isAlive(childPid)).toBe(true);
      expect(fs.existsSync(lockPathOf(dataDir))).toBe(true);

      const restarted = await startHealthy(dataDir);
      expect(isAlive(childPid)).toBe(false);
      expect(readLock(dataDir)?.pid).toBe(restarted.process.pid);
      const me = await call(restarted, 'GET', 'api/user', { token: await signIn(restarted, 'admin@reformes.test') });
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ lastname: 'Après-Crash', phone: '0612345678' });
      // The demo data set was not created a second time.
      expect(restarted.output()).not.toContain('Jeu de données de démonstration créé');
      expect(await stop(restarted)).toBe(0);
    },
    SLOW,
  );

  it(
    'drains and stops cleanly on Ctrl-C (SIGINT to the whole process group): PostgreSQL, in its own group, is stopped by the server',
    async () => {
      const dataDir = freshDataDir();
      const server = await startServer(dataDir, { ownGroup: true });
      await waitHealthy(server);
      const childPid = readLock(dataDir)?.childPid as number;
      process.kill(-(server.process.pid as number), 'SIGINT');
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain('arrêt terminé');
      await waitFor(() => !isAlive(childPid), 5_000, 'PostgreSQL to exit');
      expect(server.output()).not.toMatch(/terminating connection due to administrator command|FATAL/);
    },
    SLOW,
  );

  it(
    'converts the PGlite database of an earlier version at the first start, keeps the old folder aside, and only once',
    async () => {
      const dataDir = freshDataDir();
      await createLegacyPgliteFixture(dataDir);
      const server = await startHealthy(dataDir);
      expect(server.output()).toContain('Base PGlite convertie');
      expect(server.output()).not.toContain('Jeu de données de démonstration créé');
      expect(fs.existsSync(path.join(dataDir, 'db'))).toBe(false);
      const kept = fs.readdirSync(dataDir).filter((name) => name.startsWith('db.pglite-'));
      expect(kept).toHaveLength(1);
      // The fixture's rows answer through the API: its blocked account stays blocked, the others sign in.
      const token = await signIn(server, 'central@reformes.test');
      expect((await call(server, 'GET', 'api/user', { token })).body.data).toMatchObject({ email: 'central@reformes.test' });
      const blocked = await call(server, 'POST', 'api/login', {
        body: { email: 'validation@reformes.test', password: PASSWORD, device: 'web' },
      });
      expect(blocked.status).toBe(403);
      expect(await stop(server)).toBe(0);

      const again = await startHealthy(dataDir);
      expect(again.output()).not.toContain('Conversion de la base PGlite');
      await signIn(again, 'central@reformes.test');
      expect(await stop(again)).toBe(0);
    },
    SLOW,
  );

  it(
    'loses no acknowledged write when killed with -9 in the middle of five concurrent writers, cycle after cycle',
    async () => {
      const dataDir = freshDataDir();
      const acknowledged: string[] = [];
      for (let cycle = 0; cycle < 4; cycle++) {
        const server = await startHealthy(dataDir);
        const token = await signIn(server, 'admin@reformes.test');
        let killed = false;
        const writer = async (id: number) => {
          for (let n = 0; !killed; n++) {
            const libnature = `crash ${cycle}-${id}-${n}`;
            const answer = await call(server, 'POST', 'natures', { token, body: { libnature } }).catch(() => undefined);
            if (answer?.status === 201 || answer?.status === 200) acknowledged.push(libnature);
          }
        };
        const writers = [1, 2, 3, 4, 5].map(writer);
        await new Promise((resolve) => setTimeout(resolve, 800 + cycle * 300));
        // Every other cycle PostgreSQL dies with the server, as in a power cut: crash recovery from the WAL.
        const postgresPid = readLock(dataDir)?.childPid as number;
        server.process.kill('SIGKILL');
        if (cycle % 2 === 1) process.kill(postgresPid, 'SIGKILL');
        killed = true;
        await server.exited;
        await Promise.all(writers);
      }
      expect(acknowledged.length).toBeGreaterThan(15);
      const server = await startHealthy(dataDir);
      const token = await signIn(server, 'admin@reformes.test');
      const saved = new Set<string>();
      for (let page = 1; ; page++) {
        const answer = await fetch(`http://127.0.0.1:${server.port}/api/v1/natures?per_page=100&page=${page}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        const rows = ((await answer.json()) as { data: { data: Array<{ libnature: string }> } }).data.data;
        for (const row of rows) saved.add(row.libnature);
        if (rows.length < 100) break;
      }
      expect(acknowledged.filter((libnature) => !saved.has(libnature))).toEqual([]);
      expect(await stop(server)).toBe(0);
    },
    SLOW,
  );
});
