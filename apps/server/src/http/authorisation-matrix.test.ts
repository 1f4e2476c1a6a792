import { DEFAULT_GRANTS, MESSAGES, permissionName, ROLE_NAMES, type RoleName } from '@reformes/domain';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp } from '../test/test-app.ts';
import { authorisationGuard, type RouteEntry } from './guard.ts';

/**
 * Every API route x (anonymous and each role), generated from the server's own route table:
 * a new route gets checked without anyone writing a line here.
 */
const t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000' });
const callers = ['anonymous', ...ROLE_NAMES] as const;
type Caller = (typeof callers)[number];

// Logging out ends the caller's session: those routes go last.
const routes = [...t.app.routeTable].sort((a, b) => Number(a.url.endsWith('/logout')) - Number(b.url.endsWith('/logout')));
const cells = callers.flatMap((caller) => routes.map((route) => ({ caller, route })));

function expectedAllowed(caller: Caller, route: RouteEntry): boolean {
  const { access } = route;
  if (access === 'public') return true;
  if (caller === 'anonymous') return false;
  if (access === 'signed-in' || access === 'first-password' || access === 'two-factor-setup') return true;
  const grants = 'anyOf' in access ? access.anyOf : [access];
  return grants.some((grant) => ((DEFAULT_GRANTS[caller as RoleName][grant.feature] ?? []) as readonly string[]).includes(grant.action));
}

/** A concrete URL for a route: ids that match nothing, so allowed calls change no data. */
function concreteUrl(url: string, caller: Caller): string {
  return url
    .replace(':role', caller === 'anonymous' ? 'admin' : caller)
    .replace(':state', '1')
    .replace(/:[a-z_]+/g, '999999');
}

describe('authorisation matrix', () => {
  const tokens = new Map<Caller, Record<string, string>>();
  beforeAll(async () => {
    tokens.set('anonymous', {});
    for (const role of ROLE_NAMES) {
      const email = role === 'saisie central' ? 'central@reformes.test' : `${role}@reformes.test`;
      tokens.set(role, bearer((await t.login(email)).access_token));
    }
  });
  afterAll(() => t.close());

  it(`checks ${cells.length} cells: ${routes.length} routes x ${callers.length} callers against the seeded permissions`, async () => {
    const mismatches: string[] = [];
    for (const { caller, route } of cells) {
      const url = concreteUrl(route.url, caller);
      const response = await t.app.inject({
        method: route.method as 'GET',
        url,
        headers: tokens.get(caller),
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      const allowed = expectedAllowed(caller, route);
      // The guard's refusals: 401, or 403 with its message (a handler may refuse with a 403 of its own, e.g. "not a signer").
      const guardDenied =
        response.statusCode === 401 ||
        (response.statusCode === 403 && [MESSAGES.forbidden, MESSAGES.mustChangePassword].includes(response.json().message));
      const denial = caller === 'anonymous' ? 401 : 403;
      const ok = allowed ? !guardDenied : guardDenied && response.statusCode === denial;
      if (!ok) mismatches.push(`${caller} ${route.method} ${url}: ${response.statusCode}, expected ${allowed ? 'allowed' : denial}`);
      if (response.statusCode >= 500) mismatches.push(`${caller} ${route.method} ${url}: ${response.statusCode} ${response.body}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('has a route table covering every API route with a declared access', () => {
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) expect(route.access, `${route.method} ${route.url}`).toBeDefined();
  });

  it('refuses to start with a route that declares no access', async () => {
    const app = Fastify();
    await app.register(authorisationGuard, { db: t.db, recordRefusal: async () => {} });
    expect(() => app.get('/api/v1/undeclared', async () => 'oops')).toThrow(/ne déclare pas son droit d'accès/);
    await app.close();
  });

  it('denies what no default grants: admin cannot show reforms, saisie cannot manage users', () => {
    expect(DEFAULT_GRANTS.admin.reformes).toEqual(['list']);
    expect(DEFAULT_GRANTS.saisie.users).toBeUndefined();
    expect(permissionName('users', 'add')).toBe('users.add');
  });
});
