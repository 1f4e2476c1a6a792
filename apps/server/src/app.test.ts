import { describe, expect, it } from 'vitest';
import { createTestApp } from './test/test-app.ts';

const PRODUCTION = { NODE_ENV: 'production', JWT_SECRET: 'secret-de-production-pour-les-tests-0123456789' };

describe('API documentation (/api/docs)', () => {
  it('is not served in production: 404 for the page and the OpenAPI document', async () => {
    const t = await createTestApp(PRODUCTION);
    try {
      for (const url of ['/api/docs', '/api/docs/', '/api/docs/json', '/api/docs/static/index.html']) {
        const response = await t.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.body).not.toContain('/api/v1/api/login');
      }
    } finally {
      await t.close();
    }
  });

  it('is served in production when API_DOCS=true, and outside production by default', async () => {
    for (const env of [{ ...PRODUCTION, API_DOCS: 'true' }, { NODE_ENV: 'test' }]) {
      const t = await createTestApp(env);
      try {
        const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
        expect(response.statusCode, env.NODE_ENV).toBe(200);
        expect(Object.keys(response.json().paths)).toContain('/api/v1/api/login');
        expect((await t.app.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBeLessThan(400);
      } finally {
        await t.close();
      }
    }
  });
});

describe('security headers (ASVS V3)', () => {
  it('sends a CSP without inline scripts, nosniff, a frame policy and a referrer policy', async () => {
    const t = await createTestApp();
    try {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'self'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
    } finally {
      await t.close();
    }
  });
});
