import { APP_VERSION } from '@reformes/domain';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { pingDatabase, READY_TIMEOUT_MS } from './health.service.ts';

describe('health and the shared HTTP layer', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers GET /api/v1/health with the database kind', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Service disponible',
      data: { status: 'ok', database: t.database.kind, version: APP_VERSION },
    });
  });

  it('answers GET /api/v1/health/ready once the database answers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Service disponible',
      data: { status: 'ok', database: t.database.kind, version: APP_VERSION },
    });
  });

  it(
    'keeps liveness instant while every pooled connection is busy, and readiness answers 503 after its timeout',
    async () => {
      const { pool } = t.database;
      const held: pg.PoolClient[] = [];
      try {
        for (let i = 0; i < (pool.options.max ?? 10); i++) held.push(await pool.connect());
        const startedAt = Date.now();
        const live = await t.app.inject({ method: 'GET', url: '/api/v1/health' });
        expect(live.statusCode).toBe(200);
        expect(Date.now() - startedAt).toBeLessThan(500);

        const ready = await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' });
        expect(ready.statusCode).toBe(503);
        expect(ready.json()).toMatchObject({ message: 'Base de données indisponible.' });
        expect(Date.now() - startedAt).toBeGreaterThanOrEqual(READY_TIMEOUT_MS);
      } finally {
        for (const client of held) client.release();
      }
      // The pool recovers: the ping that timed out ran once a client was free.
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/health/ready' })).statusCode).toBe(200);
    },
    READY_TIMEOUT_MS + 10_000,
  );

  it('rejects a ping on a database that fails or never answers', async () => {
    const failing = { pool: { query: () => Promise.reject(new Error('connexion refusée')) } } as unknown as Database;
    await expect(pingDatabase(failing, 1_000)).rejects.toThrow('connexion refusée');
    const silent = { pool: { query: () => new Promise(() => undefined) } } as unknown as Database;
    await expect(pingDatabase(silent, 20)).rejects.toThrow('20 ms');
  });

  it('ignores a trailing slash', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/health/' });
    expect(response.statusCode).toBe(200);
  });

  it('answers an unknown API path with a French 404 and no stack', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ message: "Cette adresse de l'API n'existe pas." });
  });

  it('answers malformed JSON with a 400 in French', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: 'La requête est mal formée.' });
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
