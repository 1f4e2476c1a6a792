/**
 * Starts the server the way an operator does (`npm run serve`), on a free loopback port, and finds the
 * node process that really serves (below npm and its shell) for the memory figures.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../src/test/built-server.ts';
import { childrenOf, findServerPid, isAlive } from './processes.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

export interface ServerHandle {
  baseUrl: string;
  /** The `npm run serve` wrapper, leader of its own process group. */
  wrapperPid: number;
  /** The node process that listens. */
  serverPid: number;
  logFile: string;
  stop(): Promise<void>;
}

export function serveScript(root = REPO_ROOT): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const script = pkg.scripts?.serve;
  if (!script) throw new Error('package.json has no "serve" script');
  return script;
}

function newestFile(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/**
 * When `serve` runs compiled JavaScript that is missing or older than the sources (apps/server/src,
 * packages/domain/src), runs `npm run build` first: the bench must measure the code of the tree.
 */
export function ensureBuilt(log: (line: string) => void): void {
  const script = serveScript();
  const files = (script.match(/[\w./-]+\.(?:m?js|cjs|ts)\b/g) ?? []).filter((file) => !file.startsWith('-'));
  const built = files.filter((file) => /\.(?:m?js|cjs)$/.test(file)).map((file) => path.resolve(REPO_ROOT, file));
  const missing = files.filter((file) => !fs.existsSync(path.resolve(REPO_ROOT, file)));
  const sources = Math.max(...['apps/server/src', 'packages/domain/src'].map((dir) => newestFile(path.join(REPO_ROOT, dir))));
  const stale = built.filter((file) => fs.existsSync(file) && fs.statSync(file).mtimeMs < sources);
  if (missing.length === 0 && stale.length === 0) return;
  const why =
    missing.length > 0
      ? `${missing.join(', ')} does not exist`
      : `${stale.map((file) => path.relative(REPO_ROOT, file)).join(', ')} is older than the sources`;
  log(`"serve" runs compiled files and ${why}: npm run build`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed (${build.status})`);
}

function tail(file: string, lines = 30): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `npm run serve` with `env`, in `root` (this tree, or another checkout such as paired.ts's worktrees, which then
 * serves its own compiled files); resolves once GET /api/v1/health answers 200.
 */
export async function startServer(
  env: NodeJS.ProcessEnv,
  logFile: string,
  startTimeoutMs = 240_000,
  root = REPO_ROOT,
): Promise<ServerHandle> {
  const port = await freePort();
  const out = fs.openSync(logFile, 'a');
  const child = spawn('npm', ['run', '--silent', 'serve'], {
    cwd: root,
    env: { ...env, HOST: '127.0.0.1', PORT: String(port) },
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  const wrapperPid = child.pid as number;
  const exited = exitOf(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startTimeoutMs;
  let ready = false;
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  while (!ready) {
    if (gone) throw new Error(`the server stopped while starting (log ${logFile}):\n${tail(logFile)}`);
    if (Date.now() > deadline) {
      await killServer(wrapperPid);
      throw new Error(`the server did not answer within ${startTimeoutMs / 1000} s (log ${logFile}):\n${tail(logFile)}`);
    }
    try {
      ready = (await fetch(`${baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2_000) })).status === 200;
    } catch {
      // not listening yet
    }
    if (!ready) await sleep(250);
  }
  const serverPid = findServerPid(wrapperPid);
  if (!serverPid) {
    await killServer(wrapperPid);
    throw new Error('could not find the node server process below npm');
  }

  const stop = async () => {
    if (gone) return;
    const children = childrenOf(serverPid);
    // The server's own graceful shutdown: it drains its requests, then stops the embedded cluster and waits for it;
    // npm exits with it.
    try {
      process.kill(serverPid, 'SIGTERM');
    } catch {
      // already gone
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), 30_000);
      }),
    ]);
    // A pending timer would keep the bench alive 30 s after its last server.
    clearTimeout(timer);
    if (timedOut) {
      console.error(`the server did not stop within 30 s after SIGTERM: killing its process group ${wrapperPid}`);
      killGroup(wrapperPid);
      await exited;
    }
    for (let i = 0; i < 40 && isAlive(serverPid); i++) await sleep(250);
    await stopLeftovers(children);
  };
  return { baseUrl, wrapperPid, serverPid, logFile, stop };
}

/**
 * The embedded cluster runs in its own process group, so killing the server's group leaves it running: a fast
 * shutdown (SIGINT) of whatever the server started and did not stop, then SIGKILL after 20 s.
 */
async function stopLeftovers(pids: number[]): Promise<void> {
  const left = pids.filter(isAlive);
  if (left.length === 0) return;
  console.error(`processes the server left running: ${left.join(', ')}: SIGINT`);
  for (const pid of left) signal(pid, 'SIGINT');
  for (let i = 0; i < 80 && left.some(isAlive); i++) await sleep(250);
  for (const pid of left.filter(isAlive)) signal(pid, 'SIGKILL');
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

async function killServer(wrapperPid: number): Promise<void> {
  const serverPid = findServerPid(wrapperPid);
  const children = serverPid ? childrenOf(serverPid) : [];
  killGroup(wrapperPid);
  await stopLeftovers(children);
}

/** SIGKILL to the process group the bench created for one server (npm, its shell, the server and its children). */
function killGroup(groupId: number): void {
  try {
    process.kill(-groupId, 'SIGKILL');
  } catch {
    // already gone
  }
}
