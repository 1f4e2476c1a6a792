import type { RouteSpec } from '@reformes/domain';
import * as domain from '@reformes/domain';
import { describe, expect, it } from 'vitest';
import { API_BASE, type RouteEntry } from './http/guard.ts';
import { createTestApp } from './test/test-app.ts';

/** Every entry of the domain's route tables (the `…_ROUTES` exports of packages/domain), named `USERS_ROUTES.show`. */
const ENTRIES = Object.entries(domain)
  .filter(([name]) => name.endsWith('_ROUTES'))
  .flatMap(([table, routes]) =>
    Object.entries(routes as Record<string, RouteSpec>).map(([name, spec]) => ({ name: `${table}.${name}`, spec })),
  );

/**
 * Where the routes a server registered under API_BASE and the domain's tables part: a route that is no entry (registered
 * beside the table), a route whose answer schema is not its entry's `answer` (a shape of its own), an entry nothing serves.
 */
function tableBreaches(routes: RouteEntry[], entries = ENTRIES): string[] {
  const byKey = new Map(entries.map((entry) => [`${entry.spec.method} ${API_BASE}${entry.spec.path}`, entry]));
  const breaches: string[] = [];
  const served = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.url}`;
    const entry = byKey.get(key);
    if (!entry) {
      breaches.push(`${key}: no entry of the domain's route tables`);
      continue;
    }
    served.add(key);
    const expected: Record<string, unknown> = entry.spec.answer ? { [entry.spec.status ?? 200]: entry.spec.answer } : {};
    const response = (route.answers ?? {}) as Record<string, unknown>;
    const same =
      Object.keys(response).join() === Object.keys(expected).join() &&
      Object.entries(expected).every(([status, shape]) => response[status] === shape);
    if (!same) breaches.push(`${key}: its answer schema is not ${entry.name}.answer`);
  }
  for (const key of byKey.keys()) if (!served.has(key)) breaches.push(`${key}: an entry no route serves`);
  return breaches;
}

/** Every route of an app (`METHOD /path`), read from `printRoutes` (its tree: each line a path below its parent's). */
function allRoutes(tree: string): string[] {
  const routes: string[] = [];
  const parents: string[] = [];
  for (const line of tree.split('\n')) {
    const match = line.match(/^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]+)\))?$/);
    if (!match) continue;
    const depth = [...match[1]].length / 4;
    const path = (parents[depth - 1] ?? '') + match[2];
    parents[depth] = path;
    for (const method of match[3]?.split(', ') ?? []) if (method !== 'HEAD') routes.push(`${method} ${path}`);
  }
  return routes;
}

/**
 * The routes allowed beside the table, outside API_BASE (rules.mjs, ROUTE_REGISTRARS, says why for the calls in our
 * sources): the Prometheus scrape, and the API description of @fastify/swagger (not in production unless API_DOCS).
 * The built web app's files (@fastify/static) are absent here: the test app has no build.
 */
const BESIDE_THE_TABLE = [/^GET \/metrics$/, /^GET \/api\/docs(?:[/*]|$)/];

describe("the API's routes are the domain's route tables (issue 41)", () => {
  it("registers every /api/v1 route from one entry, with that entry's answer shape, and serves every entry", async () => {
    const t = await createTestApp();
    try {
      expect(t.app.routeTable.length).toBeGreaterThan(100);
      expect(tableBreaches(t.app.routeTable)).toEqual([]);
      const routes = allRoutes(t.app.printRoutes({ commonPrefix: false }));
      expect(routes.filter((route) => route.includes(`${API_BASE}/`))).toHaveLength(t.app.routeTable.length);
      expect(
        routes.filter((route) => !route.includes(` ${API_BASE}/`) && !BESIDE_THE_TABLE.some((allowed) => allowed.test(route))),
      ).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('reads every route of a printed tree, and sees one beside the table', () => {
    const tree = ['├── /metrics (GET, HEAD)', '├── /api/v1/users (POST)', '│   └── /:id (GET, HEAD, DELETE)', '└── /extra (GET)'].join(
      '\n',
    );
    const routes = allRoutes(tree);
    expect(routes).toEqual(['GET /metrics', 'POST /api/v1/users', 'GET /api/v1/users/:id', 'DELETE /api/v1/users/:id', 'GET /extra']);
    expect(routes.filter((route) => !route.includes(` ${API_BASE}/`) && !BESIDE_THE_TABLE.some((allowed) => allowed.test(route)))).toEqual([
      'GET /extra',
    ]);
  });

  it('catches a route beside the table, an answer shape of its own and an entry nothing serves', () => {
    const [show, create] = [domain.USERS_ROUTES.show, domain.USERS_ROUTES.create];
    const entries = [
      { name: 'USERS_ROUTES.show', spec: show },
      { name: 'USERS_ROUTES.create', spec: create },
      { name: 'USERS_ROUTES.list', spec: domain.USERS_ROUTES.list },
    ];
    const routes: RouteEntry[] = [
      { method: 'GET', url: `${API_BASE}/users/:id`, access: show.access, answers: { 200: show.answer } },
      { method: 'POST', url: `${API_BASE}/users`, access: create.access, answers: { 201: domain.userShape } },
      { method: 'GET', url: `${API_BASE}/users-export`, access: 'signed-in', answers: { 200: domain.messageShape } },
    ];
    expect(tableBreaches(routes, entries)).toEqual([
      'POST /api/v1/users: its answer schema is not USERS_ROUTES.create.answer',
      "GET /api/v1/users-export: no entry of the domain's route tables",
      'GET /api/v1/users: an entry no route serves',
    ]);
  });
});
