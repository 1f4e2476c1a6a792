import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { buildServer, freePort, isRunning, killServer, type ServerProcess, startServer, waitReady } from '../../test/built-server.ts';
import { createTestDatabase } from '../../test/test-database.ts';

/**
 * Two compiled instances on one database behind HAProxy, restarted one after the other under a steady load:
 * no request fails (docs/operations.md, "Plusieurs instances derrière HAProxy").
 */

const INSTALL_HAPROXY = 'apt-get install -y haproxy';
const READ_ROUTE = '/api/v1/reformes/public/suivi-result?per_page=10';
/** Readiness answers 503 this long before the listener closes: several HAProxy checks (`inter 500 fall 1`). */
const READY_DELAY_MS = 2_000;

/** HAProxy is there, or installed now when the test runs as root; otherwise the reason the test cannot run. */
function haproxyOrReason(): string | undefined {
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

/** The configuration of docs/operations.md with test timings: checks every 500 ms, one failure takes a server out. */
function haproxyConfig(ports: { front: number; stats: number; a: number; b: number }): string {
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
  server a 127.0.0.1:${ports.a}
  server b 127.0.0.1:${ports.b}

listen stats
  bind 127.0.0.1:${ports.stats}
  stats enable
  stats uri /stats
`;
}

/** The state HAProxy gives a server of the backend (UP, DOWN, UP 1/2…), from its CSV statistics. */
async function stateOf(statsPort: number, server: string): Promise<string> {
  const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
  const [header, ...rows] = csv.split('\n');
  const columns = header.replace(/^# /, '').split(',');
  const row = rows.map((line) => line.split(',')).find((cells) => cells[0] === 'instances' && cells[1] === server);
  return row?.[columns.indexOf('status')] ?? 'absent';
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await sleep(100);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** Clients reading `url` in a loop until `stop`: every answer that is not a 200, and every error, is a failure. */
function steadyLoad(url: string, clients: number) {
  let running = true;
  let succeeded = 0;
  const failures: string[] = [];
  const client = async () => {
    while (running) {
      const startedAt = Date.now();
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        await response.arrayBuffer();
        if (response.status === 200) succeeded++;
        else failures.push(`${new Date(startedAt).toISOString()} ${response.status}`);
      } catch (error) {
        failures.push(`${new Date(startedAt).toISOString()} ${(error as Error).cause ?? (error as Error).message}`);
      }
      await sleep(10);
    }
  };
  const done = Promise.all(Array.from({ length: clients }, client));
  return {
    async stop() {
      running = false;
      await done;
      return { succeeded, failures };
    },
  };
}

describe('rolling restart behind HAProxy (two compiled instances, one database)', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('serves every request while each instance in turn is stopped by SIGTERM and started again', async (context) => {
    const missing = haproxyOrReason();
    if (missing) {
      // Visible in the run's output, in CI too: the test is skipped for a reason the reader can fix.
      console.warn(`rolling-restart.test.ts ignoré : ${missing}`);
      context.skip(missing);
    }

    const [build, database] = await Promise.all([buildServer(), createTestDatabase('seeded')]);
    cleanups.push(build.remove, () => (database as Database).close());
    const ports = { front: await freePort(), stats: await freePort(), a: await freePort(), b: await freePort() };
    const servers: Record<'a' | 'b', ServerProcess | undefined> = { a: undefined, b: undefined };
    cleanups.push(async () => {
      for (const server of Object.values(servers)) if (server) await killServer(server);
    });
    const start = async (name: 'a' | 'b') => {
      const server = await startServer(build.main, {
        databaseUrl: database.url,
        port: ports[name],
        env: { SHUTDOWN_READY_DELAY_MS: String(READY_DELAY_MS), DATABASE_POOL_MAX: '4', LOG_LEVEL: 'warn' },
      });
      servers[name] = server;
      await waitReady(server);
    };
    // One after the other: both would run the migrations at the same time otherwise.
    await start('a');
    await start('b');

    const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-haproxy-'));
    fs.writeFileSync(path.join(configDir, 'haproxy.cfg'), haproxyConfig(ports));
    const haproxy: ChildProcess = spawn('haproxy', ['-db', '-f', path.join(configDir, 'haproxy.cfg')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let haproxyOutput = '';
    haproxy.stdout?.on('data', (chunk) => {
      haproxyOutput += chunk;
    });
    haproxy.stderr?.on('data', (chunk) => {
      haproxyOutput += chunk;
    });
    cleanups.push(async () => {
      if (haproxy.exitCode === null) {
        const exited = new Promise((resolve) => haproxy.once('exit', resolve));
        haproxy.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(configDir, { recursive: true, force: true });
    });
    const isUp = async (name: 'a' | 'b') => (await stateOf(ports.stats, name).catch(() => '')) === 'UP';
    await waitUntil(async () => (await isUp('a')) && (await isUp('b')), 10_000, `HAProxy to see both instances UP:\n${haproxyOutput}`);

    const load = steadyLoad(`http://127.0.0.1:${ports.front}${READ_ROUTE}`, 4);
    await sleep(1_000);
    const startedAt = Date.now();
    for (const name of ['a', 'b'] as const) {
      const server = servers[name] as ServerProcess;
      server.process.kill('SIGTERM');
      // HAProxy takes it out on readiness while the instance still serves, before its listener closes.
      await waitUntil(async () => !(await isUp(name)), READY_DELAY_MS, `HAProxy to take ${name} out`);
      expect(isRunning(server)).toBe(true);
      expect(await server.exited, server.output()).toBe(0);
      await start(name);
      await waitUntil(() => isUp(name), 10_000, `HAProxy to put ${name} back`);
    }
    const restartMs = Date.now() - startedAt;
    await sleep(1_000);
    const { succeeded, failures } = await load.stop();

    console.info(`rolling restart: ${succeeded} requests served in ${restartMs} ms of restarts, ${failures.length} failed`);
    expect(failures).toEqual([]);
    expect(succeeded).toBeGreaterThan(100);
  }, 90_000);
});
