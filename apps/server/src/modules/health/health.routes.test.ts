import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.ts';

describe('health and the shared HTTP layer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers GET /api/v1/health with the database kind', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Service disponible', data: { status: 'ok', database: t.database.kind } });
  });

  it('ignores a trailing slash', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health/' });
    expect(response.statusCode).toBe(200);
  });

  it('answers an unknown API path with a French 404 and no stack', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: "Cette adresse de l'API n'existe pas." });
  });

  it('answers malformed JSON with a 400 in French', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'La requête est mal formée.' });
  });

  it('publishes the OpenAPI document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toContain('/api/v1/api/login');
  });

  it('lists every API route with its declared access', () => {
    expect(t.app.routeTable.length).toBeGreaterThan(5);
    expect(t.app.routeTable.every((route) => route.access !== undefined)).toBe(true);
  });
});
