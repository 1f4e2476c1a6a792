import { afterAll, describe, expect, it } from 'vitest';
import { securityFigure } from '../test/security-doc.ts';
import { createTestApp } from '../test/test-app.ts';

/**
 * ASVS V8 (authorization) figures for docs/security.md: every API route declares its access (the guard
 * refuses to start otherwise), and the routes open to anonymous callers are exactly this list. A new public
 * route makes this test fail until someone adds it here on purpose.
 */
const PUBLIC_ROUTES = [
  'GET /api/v1/health',
  'GET /api/v1/health/ready',
  'POST /api/v1/api/login',
  // The code step of a sign-in with a second factor: it needs the challenge of the right password (issue 18).
  'POST /api/v1/api/login/2fa',
  'POST /api/v1/api/refresh',
  'POST /api/v1/api/forgot-password',
  'POST /api/v1/api/recovery-password',
  'GET /api/v1/reformes/public/suivi-result',
  'GET /api/v1/reformes/public/filters',
  'GET /api/v1/reformes/public/export.json',
  'GET /api/v1/reformes/public/export.csv',
  'GET /api/v1/reformes/public/:id',
  // Issue 42: what the sign-in page offers, the start of a directory dance (a redirect to the provider), and the
  // provider's back-channel logout (a token signed by the provider, checked by its keys).
  'GET /api/v1/auth/options',
  'GET /api/v1/auth/oidc/authorize',
  'POST /api/v1/auth/oidc/backchannel-logout',
].sort();

const t = await createTestApp();
afterAll(() => t.close());

describe('route access figures', () => {
  const routes = t.app.routeTable.filter((route) => route.url.startsWith('/api/v1'));

  it('opens only the listed routes to anonymous callers', () => {
    const open = routes.filter((route) => route.access === 'public').map((route) => `${route.method} ${route.url}`);
    expect(open.sort()).toEqual(PUBLIC_ROUTES);
  });

  it('checks a right (feature.action) on every route that is neither public nor about the caller alone', () => {
    const byKind = { public: 0, session: 0, right: 0 };
    for (const route of routes) {
      if (route.access === 'public') byKind.public += 1;
      else if (route.access === 'signed-in' || route.access === 'first-password' || route.access === 'two-factor-setup')
        byKind.session += 1;
      else byKind.right += 1;
    }
    const checked = byKind.session + byKind.right;
    console.info(
      `routes with an authorisation check: ${checked}/${routes.length} (${byKind.right} by right, ${byKind.session} by session alone, ${byKind.public} public)`,
    );
    expect(checked + byKind.public).toBe(routes.length);
    expect(byKind.right).toBeGreaterThan(byKind.session);
    // The figure of docs/security.md, as it must read there.
    expect(securityFigure('API routes with an authorisation check / total')).toBe(
      `${checked} / ${routes.length} (${byKind.right} by a \`feature.action\` right, ${byKind.session} by session alone). ` +
        `The other ${byKind.public} are public, and exactly the listed ones.`,
    );
  });
});
