import { ERROR_CODES, MESSAGES } from '@reformes/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';

const TOKEN = 'metrics-token-of-at-least-thirty-two-characters';

/** The value of one sample line (`name{labels} value`) of a Prometheus text answer, or undefined. */
function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`);
  const line = text
    .split('\n')
    .find(
      (candidate) =>
        (candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `)) && wanted.every((pair) => candidate.includes(pair)),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** Issue 31, item 5: Prometheus figures at /metrics. */
describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers a loopback client in the Prometheus text format, with the default process figures', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toContain('# TYPE process_cpu_user_seconds_total counter');
    expect(response.body).toContain('# TYPE nodejs_heap_size_used_bytes gauge');
  });

  it('counts a request under its route pattern, never its raw URL', async () => {
    const labels = { method: 'GET', route: '/api/v1/reformes/public/:id', status_code: '404' };
    const before =
      sampleOf((await t.app.inject({ method: 'GET', url: '/metrics' })).body, 'http_request_duration_seconds_count', labels) ?? 0;
    await t.anonymous.get('reformes/public/987654');
    await t.anonymous.get('reformes/public/987655');
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sampleOf(text, 'http_request_duration_seconds_count', labels)).toBe(before + 2);
    expect(sampleOf(text, 'http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(before + 2);
    expect(text).not.toContain('987654');
  });

  it('reports the database pool (total, idle and waiting clients) at each scrape', async () => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const pool = t.database.pool;
    expect(sampleOf(text, 'db_pool_total_clients')).toBe(pool.totalCount);
    expect(sampleOf(text, 'db_pool_idle_clients')).toBe(pool.idleCount);
    expect(sampleOf(text, 'db_pool_waiting_clients')).toBe(0);
    expect(pool.totalCount).toBeGreaterThan(0);
  });

  it('reports the mails waiting in the job queue (issue 31: an SMTP outage shows)', async () => {
    await t.database.pool.query(
      "insert into jobs (kind, payload, max_attempts, run_at) values ('mail', '{\"to\": \"x@reformes.test\"}', 50, now() + interval '1 hour')",
    );
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sampleOf(text, 'reformes_jobs', { kind: 'mail', state: 'pending' })).toBeGreaterThanOrEqual(1);
  });

  it('is not in the OpenAPI document', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(document.paths)).not.toContain('/metrics');
  });

  it('does not exist (404) for a client on another machine, nor for one behind a proxy on this one', async () => {
    for (const request of [
      { remoteAddress: '203.0.113.7' },
      { remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } },
      { remoteAddress: '127.0.0.1', headers: { forwarded: 'for=203.0.113.7' } },
    ]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', ...request });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: MESSAGES.routeNotFound, code: ERROR_CODES.routeNotFound });
    }
    expect((await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  it('refuses a request without the token or with a wrong one (401, a French message), even from this machine', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN.slice(0, -1)}x`, `Bearer ${TOKEN}x`, 'Bearer ', TOKEN]) {
      const response = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '127.0.0.1',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(Object.keys(response.json())).toEqual(['message', 'code']);
      expect(response.json().message).toMatch(/jeton/i);
    }
  });

  it('answers the bearer of the token from anywhere', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.7',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('db_pool_total_clients');
  });
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Issue 40, item 10: the id a request is logged under is the server's own unless a trusted proxy names it. */
describe('x-request-id', () => {
  let t: TestApp;
  let behindProxy: TestApp;
  const lines: string[] = [];
  const entriesOf = (reqId: string) => lines.map((line) => JSON.parse(line)).filter((entry) => entry.reqId === reqId);
  const health = (app: TestApp, remoteAddress: string, sent?: string) =>
    app.app.inject({
      method: 'GET',
      url: '/api/v1/health',
      remoteAddress,
      headers: sent === undefined ? {} : { 'x-request-id': sent },
    });
  beforeAll(async () => {
    const logStream = { write: (line: string) => void lines.push(line) };
    t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream });
    behindProxy = await createTestApp(
      { LOG_LEVEL: 'info', TRUST_PROXY: '10.9.9.9', JWT_SECRET: 'un-secret-de-test-long-de-plus-de-32-caracteres', METRICS_TOKEN: TOKEN },
      { logStream },
    );
  });
  afterAll(async () => {
    await t.close();
    await behindProxy.close();
  });

  it("logs a direct client's id beside the server's own, never instead of it", async () => {
    const response = await health(t, '203.0.113.7', 'client-42.a_B');
    const id = String(response.headers['x-request-id']);
    expect(id).toMatch(UUID);
    const logged = entriesOf(id);
    expect(logged.map((entry) => entry.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    for (const entry of logged) expect(entry.clientRequestId).toBe('client-42.a_B');
    expect(entriesOf('client-42.a_B')).toEqual([]);
  });

  it('takes the id of the trusted proxy (TRUST_PROXY), and not that of a client reaching the server around it', async () => {
    const proxied = await health(behindProxy, '10.9.9.9', 'proxy-42.a_B');
    expect(proxied.headers['x-request-id']).toBe('proxy-42.a_B');
    const logged = entriesOf('proxy-42.a_B');
    expect(logged.map((entry) => entry.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
    for (const entry of logged) expect(entry).not.toHaveProperty('clientRequestId');

    const direct = await health(behindProxy, '203.0.113.8', 'proxy-43.a_B');
    expect(String(direct.headers['x-request-id'])).toMatch(UUID);
    expect(entriesOf(String(direct.headers['x-request-id']))[0].clientRequestId).toBe('proxy-43.a_B');
  });

  it('generates one when the proxy sent none, or one that is too long or holds other characters (not logged either)', async () => {
    const seen = new Set<string>();
    for (const sent of [undefined, 'a'.repeat(201), 'bad id', 'x\u00e9', '']) {
      const response = await health(behindProxy, '10.9.9.9', sent);
      const id = String(response.headers['x-request-id']);
      expect(id).toMatch(UUID);
      expect(entriesOf(id)[0]).not.toHaveProperty('clientRequestId');
      seen.add(id);
    }
    expect(seen.size).toBe(5);
    expect((await health(behindProxy, '10.9.9.9', 'a'.repeat(200))).headers['x-request-id']).toBe('a'.repeat(200));
  });

  it('goes with error answers too', async () => {
    const response = await t.anonymous.get('users');
    expect(response.statusCode).toBe(401);
    expect(response.headers['x-request-id']).toMatch(UUID);
  });
});
