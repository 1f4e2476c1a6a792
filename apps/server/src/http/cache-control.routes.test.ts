import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../test/test-app.ts';

/** ASVS V14.3: an answer holding personal data is never kept by a browser or a shared cache (issue 29). */
describe('Cache-Control of the API answers', () => {
  let t: TestApp;
  let admin: Caller;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('admin');
  });
  afterAll(() => t.close());

  it('answers no-store on every route that needs a session: the current user, the accounts, a refusal', async () => {
    for (const url of ['api/user', 'users', 'audit-logs']) {
      const response = await admin.get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    const saisie = await t.as('saisie');
    const refused = await saisie.get('users');
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['cache-control']).toBe('no-store');
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/users' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['cache-control']).toBe('no-store');
  });

  it('keeps the Cache-Control a route set itself (private downloads)', async () => {
    const response = await admin.get('audit-logs/export.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('leaves the public routes their own caching (ETag on the open-data files)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/reformes/public/export.csv' });
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBeTruthy();
    expect(response.headers['cache-control'] ?? '').not.toContain('no-store');
    const health = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(health.headers['cache-control'] ?? '').not.toContain('no-store');
  });
});
