import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, type TestContext } from 'vitest';
import { isRunning, type ServerProcess } from './built-server.ts';
import { waitUntil } from './steady-load.ts';

/**
 * A real HAProxy in front of compiled instances (built-server.ts), with the configuration of docs/operations.md
 * ("Plusieurs instances derrière HAProxy"), and the steady load the tests of restarts and upgrades run through it.
 */

const INSTALL_HAPROXY = 'apt-get install -y haproxy';

/** HAProxy is there, or installed now when the test runs as root; otherwise the reason the test cannot run. */
export function haproxyOrReason(): string | undefined {
  const isInstalled = () => spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0;
  if (isInstalled()) return undefined;
  if (process.getuid?.() !== 0) return `HAProxy est absent : installez-le (${`sudo ${INSTALL_HAPROXY}`}) pour lancer ce test.`;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('sh', ['-c', INSTALL_HAPROXY], { env, stdio: 'ignore', timeout: 180_000 }).status === 0;
  if (!install()) {
    spawnSync('apt-get', ['update'], { env, stdio: 'ignore', timeout: 180_000 });
    install();
  }
  return isInstalled() ? undefined : `HAProxy est absent et « ${INSTALL_HAPROXY} » a échoué : installez-le pour lancer ce test.`;
}

/** The clean-ups a test file registers as it goes (processes, folders, database), run in reverse after its tests. */
export function cleanupsAfterAll(): (() => Promise<void> | void)[] {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  return cleanups;
}

/** Skips the test when HAProxy is absent and cannot be installed, with the reason in the run's output (in CI too). */
export function skipWithoutHaproxy(context: TestContext, file: string): void {
  const missing = haproxyOrReason();
  if (!missing) return;
  console.warn(`${file} ignoré : ${missing}`);
  context.skip(missing);
}

export interface HaproxyPorts {
  front: number;
  stats: number;
  /** The backend's servers by name, each on its loopback port. */
  servers: Record<string, number>;
}

/** The configuration of docs/operations.md with test timings: checks every 500 ms, one failure takes a server out. */
export function haproxyConfig(ports: HaproxyPorts): string {
  const servers = Object.entries(ports.servers).map(([name, port]) => `  server ${name} 127.0.0.1:${port}`);
  return `global
  maxconn 200

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  timeout check 1s

frontend reformes
  bind 127.0.0.1:${ports.front}
  default_backend instances

backend instances
  balance roundrobin
  option httpchk
  http-check send meth GET uri /api/v1/health/ready
  http-check expect status 200
  default-server check inter 500 fall 1 rise 2
${servers.join('\n')}

listen stats
  bind 127.0.0.1:${ports.stats}
  stats enable
  stats uri /stats
`;
}

/** One server's row of HAProxy's CSV statistics, by column name (status: UP, DOWN, UP 1/2…; stot: sessions served). */
export async function statsOf(statsPort: number, server: string): Promise<Record<string, string>> {
  const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
  const [header, ...rows] = csv.split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const row = rows.map((line) => line.split(',')).find((cells) => cells[0] === 'instances' && cells[1] === server);
  return Object.fromEntries(columns.map((column, index) => [column, row?.[index] ?? '']));
}

/** The state HAProxy gives a server of the backend (UP, DOWN, UP 1/2…), or 'absent'. */
export async function stateOf(statsPort: number, server: string): Promise<string> {
  return (await statsOf(statsPort, server)).status || 'absent';
}

export interface Haproxy {
  /** `http://127.0.0.1:<front>` followed by `pathname`. */
  url: (pathname: string) => string;
  isUp: (server: string) => Promise<boolean>;
  /** HAProxy's own messages, for a failure's report. */
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts HAProxy in the foreground on `ports` and waits until it sees every server UP. */
export async function startHaproxy(ports: HaproxyPorts): Promise<Haproxy> {
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-haproxy-'));
  fs.writeFileSync(path.join(configDir, 'haproxy.cfg'), haproxyConfig(ports));
  const haproxy: ChildProcess = spawn('haproxy', ['-db', '-f', path.join(configDir, 'haproxy.cfg')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  haproxy.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  haproxy.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const proxy: Haproxy = {
    url: (pathname) => `http://127.0.0.1:${ports.front}${pathname}`,
    isUp: async (server) => (await stateOf(ports.stats, server).catch(() => '')) === 'UP',
    output: () => output,
    async stop() {
      if (haproxy.exitCode === null && haproxy.signalCode === null) {
        const exited = new Promise((resolve) => haproxy.once('exit', resolve));
        haproxy.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(configDir, { recursive: true, force: true });
    },
  };
  try {
    const names = Object.keys(ports.servers);
    const allUp = async () => (await Promise.all(names.map(proxy.isUp))).every(Boolean);
    await waitUntil(allUp, 10_000, `HAProxy to see ${names.join(', ')} UP`);
  } catch (error) {
    await proxy.stop();
    throw new Error(`${(error as Error).message}:\n${output}`);
  }
  return proxy;
}

/**
 * One step of a rolling restart: SIGTERM to `server`; HAProxy takes it out on readiness while it still serves, before
 * its listener closes (within `readyDelayMs`); it exits 0; then `startNext` starts its successor on the same port and
 * HAProxy puts it back.
 */
export async function replaceBehind(
  haproxy: Haproxy,
  name: string,
  server: ServerProcess,
  readyDelayMs: number,
  startNext: () => Promise<void>,
) {
  server.process.kill('SIGTERM');
  await waitUntil(async () => !(await haproxy.isUp(name)), readyDelayMs, `HAProxy to take ${name} out`);
  expect(isRunning(server)).toBe(true);
  expect(await server.exited, server.output()).toBe(0);
  await startNext();
  await waitUntil(() => haproxy.isUp(name), 10_000, `HAProxy to put ${name} back`);
}
