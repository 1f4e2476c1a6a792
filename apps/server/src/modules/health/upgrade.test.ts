import { APP_VERSION } from '@reformes/domain';
import { describe, expect, it } from 'vitest';
import { buildServer, freePort, killServer, type ServerProcess, startServer, waitReady } from '../../test/built-server.ts';
import { cleanupsAfterAll, replaceBehind, skipWithoutHaproxy, startHaproxy, statsOf } from '../../test/haproxy.ts';
import { previousRelease } from '../../test/previous-release.ts';
import { type Attempt, reading, sleep, steadyLoad } from '../../test/steady-load.ts';
import { createTestDatabase } from '../../test/test-database.ts';

/**
 * The zero-downtime upgrade (issue 43; docs/operations.md, "Mise à jour sans interruption"): the previous release's
 * two instances on one PostgreSQL behind HAProxy, replaced one by one by this release's under reads and writes,
 * then this release's replaced by the previous one again (the code rolled back, not the schema). The first instance
 * of this release applies the new migrations, once, under the startup lock; the previous release keeps serving on
 * the migrated schema. Not in `npm test` (it builds the previous release from git): `npm run test:upgrade`.
 */

const READ_ROUTE = '/api/v1/reformes/public/suivi-result?per_page=10';
/** Readiness answers 503 this long before the listener closes: several HAProxy checks (`inter 500 fall 1`). */
const READY_DELAY_MS = 2_000;
/** The writers' account (README's demo accounts, the same in both releases): it may add to the reference lists. */
const WRITER = { email: 'admin@reformes.test', password: 'Reformes2026!' };
/** Each writer signs in again every so many writes: the sign-in reads and writes the users' tables 0019 changed. */
const WRITES_PER_SIGN_IN = 20;
/** This release's last migration (0019_directory_sign_in's `when` in meta/_journal.json) and what it creates. */
const NEW_MIGRATION_WHEN = 1795600000000;
const NEW_TABLES = ['directory_links', 'directory_dances', 'directory_sessions', 'directory_logout_tokens'];

type Name = 'a' | 'b';

interface Write {
  id: number;
  label: string;
}

/**
 * Writers through `url`: each signs in as WRITER, adds a sector (a 201 with its id is an acknowledged write, kept in
 * `acknowledged`) and reads it back at once, through whichever instance the balancer picks.
 */
function writers(url: (pathname: string) => string, prefix: string) {
  const acknowledged: Write[] = [];
  const tokens = new Map<number, string>();
  let writes = 0;
  let signIns = 0;
  const call = async (method: string, pathname: string, expected: number, body?: unknown, token?: string) => {
    const response = await fetch(url(pathname), {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    if (response.status !== expected) throw new Error(`${method} ${pathname}: ${response.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as { data?: Record<string, unknown> };
  };
  const attempt: Attempt = async (client) => {
    let token = tokens.get(client);
    if (!token || writes % WRITES_PER_SIGN_IN === 0) {
      const answer = await call('POST', '/api/v1/api/login', 200, WRITER);
      token = answer.data?.access_token as string;
      if (!token) throw new Error(`sign-in without an access token: ${JSON.stringify(answer)}`);
      tokens.set(client, token);
      signIns++;
    }
    const label = `${prefix} ${client}-${++writes}`;
    const created = await call('POST', '/api/v1/sectors', 201, { libsecteur: label }, token);
    const id = created.data?.id;
    if (typeof id !== 'number') throw new Error(`a created sector without an id: ${JSON.stringify(created)}`);
    acknowledged.push({ id, label });
    const read = await call('GET', `/api/v1/sectors/${id}`, 200, undefined, token);
    if (read.data?.libsecteur !== label) throw new Error(`sector ${id} read back as ${JSON.stringify(read)}, written as ${label}`);
  };
  return { attempt, acknowledged, signIns: () => signIns };
}

describe('zero-downtime upgrade behind HAProxy (previous release to this one and back, one database)', () => {
  const cleanups = cleanupsAfterAll();

  it('serves every request and keeps every acknowledged write while the release changes, instance by instance', async (context) => {
    const testStartedAt = Date.now();
    skipWithoutHaproxy(context, 'upgrade.test.ts');

    const [previous, current, database] = await Promise.all([previousRelease(), buildServer(), createTestDatabase('empty')]);
    cleanups.push(current.remove, () => database.close());
    const releases = { previous: previous.main, current: current.main };
    const query = async <R extends Record<string, unknown>>(sql: string, values: unknown[] = []) =>
      (await database.pool.query<R>(sql, values)).rows;
    /** The rows of drizzle's journal of applied migrations, and those of this release's new migration. */
    const migrations = async () => {
      const [row] = await query<{ total: number; distinct_hashes: number; newest: number }>(
        `select count(*)::int as total, count(distinct hash)::int as distinct_hashes,
                count(*) filter (where created_at = $1)::int as newest
           from drizzle.__drizzle_migrations`,
        [NEW_MIGRATION_WHEN],
      );
      return row;
    };
    const newTables = async () =>
      (
        await query<{ name: string }>('select table_name as name from information_schema.tables where table_name = any($1) order by 1', [
          NEW_TABLES,
        ])
      )
        .map((row) => row.name)
        .sort();

    const ports = { front: await freePort(), stats: await freePort(), servers: { a: await freePort(), b: await freePort() } };
    const servers: Record<Name, ServerProcess | undefined> = { a: undefined, b: undefined };
    cleanups.push(async () => {
      for (const server of Object.values(servers)) if (server) await killServer(server);
    });
    const start = async (name: Name, release: keyof typeof releases) => {
      const server = await startServer(releases[release], {
        databaseUrl: database.url,
        port: ports.servers[name],
        env: {
          SHUTDOWN_READY_DELAY_MS: String(READY_DELAY_MS),
          DATABASE_POOL_MAX: '4',
          LOG_LEVEL: 'warn',
          // The previous release creates the demo accounts on the empty database; this one finds them.
          SEED_DEMO: 'true',
          LOGIN_MAX_PER_IP_PER_MINUTE: '100000',
        },
      });
      servers[name] = server;
      await waitReady(server);
      // Who is who: this release names its version in the health answer, the previous one (before 1.0.0) does not.
      const health = (await (await fetch(server.url('/api/v1/health'))).json()) as { data: { version?: string } };
      expect(health.data.version, `${name}'s release`).toBe(release === 'current' ? APP_VERSION : undefined);
    };

    // The previous release creates the schema of its own migrations, one instance after the other.
    await start('a', 'previous');
    await start('b', 'previous');
    const before = await migrations();
    expect(before.newest).toBe(0);
    expect(await newTables()).toEqual([]);

    const haproxy = await startHaproxy(ports);
    cleanups.push(haproxy.stop);
    const answered = async (name: Name) => Number((await statsOf(ports.stats, name)).hrsp_2xx);

    /** SIGTERM, out of HAProxy while it still serves, exit 0; then `release` on the same port, back in HAProxy. */
    const replace = (name: Name, release: keyof typeof releases) =>
      replaceBehind(haproxy, name, servers[name] as ServerProcess, READY_DELAY_MS, () => start(name, release));
    /** A read, a sign-in, a write and its reading back, straight to one instance (not through HAProxy). */
    const serves = async (name: Name, phase: string) => {
      const server = servers[name] as ServerProcess;
      const direct = writers(server.url, `Essai direct ${name} ${phase}`);
      await reading(server.url(READ_ROUTE))(0);
      await direct.attempt(0);
      return direct.acknowledged;
    };

    const readers = steadyLoad(4, reading(haproxy.url(READ_ROUTE)));
    const written = writers(haproxy.url, 'Essai de mise à jour');
    const writing = steadyLoad(2, written.attempt);
    // A failed assertion ends the loads before the instances (clean-ups run in reverse).
    cleanups.push(async () => {
      await Promise.all([readers.stop(), writing.stop()]);
    });
    const directWrites: Write[] = [];
    await sleep(1_000);

    // Upgrade: a first; its start applies 0019 while b, of the previous release, serves alone.
    const upgradeStartedAt = Date.now();
    await replace('a', 'current');
    expect(await migrations()).toEqual({ total: before.total + 1, distinct_hashes: before.total + 1, newest: 1 });
    expect(await newTables()).toEqual([...NEW_TABLES].sort());
    // The previous release on the migrated schema, beside this one: straight, and through HAProxy for a while.
    directWrites.push(...(await serves('b', 'upgrade')));
    const answeredByOldBefore = await answered('b');
    await sleep(2_000);
    const answeredByOld = (await answered('b')) - answeredByOldBefore;
    expect(answeredByOld).toBeGreaterThan(10);
    await replace('b', 'current');
    const upgradeMs = Date.now() - upgradeStartedAt;
    await sleep(1_000);
    // The second instance of this release found the migration applied: still one row.
    expect((await migrations()).newest).toBe(1);

    // Rollback of the code, not of the schema: the previous release again, on the migrated database.
    const rollbackStartedAt = Date.now();
    await replace('a', 'previous');
    await sleep(2_000);
    await replace('b', 'previous');
    const rollbackMs = Date.now() - rollbackStartedAt;
    directWrites.push(...(await serves('a', 'rollback')), ...(await serves('b', 'rollback')));
    await sleep(1_000);
    const reads = await readers.stop();
    const writes = await writing.stop();
    expect(await migrations()).toEqual({ total: before.total + 1, distinct_hashes: before.total + 1, newest: 1 });

    // Every acknowledged write is in the database, as written.
    const acknowledged = [...written.acknowledged, ...directWrites];
    const stored = await query<{ id: number; libsecteur: string }>('select id, libsecteur from sectors where id = any($1)', [
      acknowledged.map((write) => write.id),
    ]);
    const storedLabels = new Map(stored.map((row) => [row.id, row.libsecteur]));
    const lost = acknowledged.filter((write) => storedLabels.get(write.id) !== write.label);

    console.info(
      `upgrade ${previous.sha.slice(0, 7)} -> this release -> ${previous.sha.slice(0, 7)}: ${reads.succeeded} reads and ` +
        `${writes.succeeded} writes read back (${acknowledged.length} acknowledged, ${written.signIns()} sign-ins) through HAProxy, ` +
        `${reads.failures.length + writes.failures.length} failed, ${lost.length} lost; the previous release answered ` +
        `${answeredByOld} requests beside this one on the migrated schema; upgrade ${upgradeMs} ms, rollback ${rollbackMs} ms, ` +
        `previous release ready in ${previous.preparedMs} ms, whole test ${Date.now() - testStartedAt} ms`,
    );
    expect([...reads.failures, ...writes.failures]).toEqual([]);
    expect(lost).toEqual([]);
    expect(reads.succeeded).toBeGreaterThan(100);
    expect(written.acknowledged.length).toBeGreaterThan(20);
  }, 400_000);
});
