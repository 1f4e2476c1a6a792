import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * The compiled server as production runs it (`node dist/main.js`), for the tests of what only a real process shows:
 * signals, exit codes, sockets.
 */

const SERVER_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** A JWT_SECRET the instances of one test share (tokens signed by one are accepted by the other). */
export const TEST_JWT_SECRET = 'built-server-test-secret-at-least-32-characters';

/**
 * Compiles the server (scripts/build.mjs) into a folder of its own, so that a parallel `npm run build` or another
 * test file does not replace the files under a running process; `remove` deletes it. The folder sits under
 * apps/server/node_modules so that the bundle finds its packages as dist/main.js does.
 */
export async function buildServer(): Promise<{ main: string; remove: () => void }> {
  const outdir = path.join(SERVER_DIR, 'node_modules', '.cache', `reformes-built-${process.pid}-${Date.now().toString(36)}`);
  await promisify(execFile)(process.execPath, [path.join(SERVER_DIR, 'scripts', 'build.mjs'), '--outdir', outdir], { cwd: SERVER_DIR });
  return { main: path.join(outdir, 'main.js'), remove: () => fs.rmSync(outdir, { recursive: true, force: true }) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  process: ChildProcess;
  port: number;
  /** `http://127.0.0.1:<port>` followed by `pathname`. */
  url: (pathname: string) => string;
  output: () => string;
  /** The exit code (null when a signal killed it). */
  exited: Promise<number | null>;
}

/** Starts `node <main>` on a free loopback port (or `port`) against `databaseUrl`; `env` adds or overrides variables. */
export async function startServer(
  main: string,
  { databaseUrl, port, env = {} }: { databaseUrl: string; port?: number; env?: Record<string, string> },
): Promise<ServerProcess> {
  const listenPort = port ?? (await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-built-'));
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: String(listenPort),
    DATABASE_URL: databaseUrl,
    JWT_SECRET: TEST_JWT_SECRET,
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web'),
    SEED_DEMO: 'false',
    LOG_LEVEL: 'info',
    ...env,
  };
  delete childEnv.SMTP_URL;
  const child = spawn(process.execPath, [main], { cwd: SERVER_DIR, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      fs.rmSync(dataDir, { recursive: true, force: true });
      resolve(code);
    }),
  );
  return { process: child, port: listenPort, url: (pathname) => `http://127.0.0.1:${listenPort}${pathname}`, output: () => output, exited };
}

export const isRunning = (server: ServerProcess) => server.process.exitCode === null && server.process.signalCode === null;

/** Resolves once `GET /api/v1/health/ready` answers 200; throws if the process exits first or `timeoutMs` passes. */
export async function waitReady(server: ServerProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isRunning(server)) throw new Error(`the server exited (${server.process.exitCode}) before it was ready:\n${server.output()}`);
    const status = await fetch(server.url('/api/v1/health/ready')).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not ready within ${timeoutMs} ms:\n${server.output()}`);
}

/** SIGKILL for what a test left running (a failed assertion); the normal path stops with SIGTERM itself. */
export async function killServer(server: ServerProcess): Promise<void> {
  if (isRunning(server)) server.process.kill('SIGKILL');
  await server.exited;
}
