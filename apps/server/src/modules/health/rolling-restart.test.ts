import { describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { buildServer, freePort, killServer, type ServerProcess, startServer, waitReady } from '../../test/built-server.ts';
import { cleanupsAfterAll, replaceBehind, skipWithoutHaproxy, startHaproxy } from '../../test/haproxy.ts';
import { reading, sleep, steadyLoad } from '../../test/steady-load.ts';
import { createTestDatabase } from '../../test/test-database.ts';

/**
 * Two compiled instances on one database behind HAProxy, restarted one after the other under a steady load:
 * no request fails (docs/operations.md, "Plusieurs instances derrière HAProxy").
 */

const READ_ROUTE = '/api/v1/reformes/public/suivi-result?per_page=10';
/** Readiness answers 503 this long before the listener closes: several HAProxy checks (`inter 500 fall 1`). */
const READY_DELAY_MS = 2_000;

describe('rolling restart behind HAProxy (two compiled instances, one database)', () => {
  const cleanups = cleanupsAfterAll();

  it('serves every request while each instance in turn is stopped by SIGTERM and started again', async (context) => {
    skipWithoutHaproxy(context, 'rolling-restart.test.ts');

    const [build, database] = await Promise.all([buildServer(), createTestDatabase('seeded')]);
    cleanups.push(build.remove, () => (database as Database).close());
    const ports = { front: await freePort(), stats: await freePort(), servers: { a: await freePort(), b: await freePort() } };
    const servers: Record<'a' | 'b', ServerProcess | undefined> = { a: undefined, b: undefined };
    cleanups.push(async () => {
      for (const server of Object.values(servers)) if (server) await killServer(server);
    });
    const start = async (name: 'a' | 'b') => {
      const server = await startServer(build.main, {
        databaseUrl: database.url,
        port: ports.servers[name],
        env: { SHUTDOWN_READY_DELAY_MS: String(READY_DELAY_MS), DATABASE_POOL_MAX: '4', LOG_LEVEL: 'warn' },
      });
      servers[name] = server;
      await waitReady(server);
    };
    // One after the other: both would run the migrations at the same time otherwise.
    await start('a');
    await start('b');

    const haproxy = await startHaproxy(ports);
    cleanups.push(haproxy.stop);

    const load = steadyLoad(4, reading(haproxy.url(READ_ROUTE)));
    await sleep(1_000);
    const startedAt = Date.now();
    for (const name of ['a', 'b'] as const) {
      await replaceBehind(haproxy, name, servers[name] as ServerProcess, READY_DELAY_MS, () => start(name));
    }
    const restartMs = Date.now() - startedAt;
    await sleep(1_000);
    const { succeeded, failures } = await load.stop();

    console.info(`rolling restart: ${succeeded} requests served in ${restartMs} ms of restarts, ${failures.length} failed`);
    expect(failures).toEqual([]);
    expect(succeeded).toBeGreaterThan(100);
  }, 90_000);
});
