import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@reformes/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { DEFAULT_PRESSURE_LIMITS, PRESSURE_RETRY_AFTER_SECONDS, type PressureLimits } from './pressure.ts';

/** The app on a fresh seeded database with these pressure limits; `close` removes everything. */
async function appUnder(pressureLimits: PressureLimits) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-pressure-'));
  const database = await createTestDatabase('seeded');
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: path.join(dataDir, 'no-web') });
  const app = await buildApp({ config, database, logger: false, pressureLimits });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A server past its heap limit (set to 1 byte here, so that it is from the first sample on). */
describe('a server under pressure', () => {
  let server: Awaited<ReturnType<typeof appUnder>>;
  let app: App;

  beforeAll(async () => {
    server = await appUnder({ ...DEFAULT_PRESSURE_LIMITS, maxHeapUsedBytes: 1 });
    app = server.app;
    // under-pressure samples every 100 ms.
    await new Promise((resolve) => setTimeout(resolve, 250));
  });

  afterAll(async () => server?.close());

  it('refuses new work with 503, Retry-After and a French message in the usual shape', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/api/v1/reformes/public/suivi-result' },
      { method: 'POST' as const, url: '/api/v1/api/login', payload: { email: 'admin@reformes.test', password: 'x', device: 'web' } },
    ]) {
      const response = await app.inject(request);
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe(String(PRESSURE_RETRY_AFTER_SECONDS));
      expect(response.json()).toMatchObject({ message: MESSAGES.overloaded });
    }
  });

  it('still answers liveness and readiness, so that a supervisor does not restart a server that is merely busy', async () => {
    for (const url of ['/api/v1/health', '/api/v1/health/ready']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.json().message).toBe(MESSAGES.healthy);
    }
  });
});

/** An event loop that stays behind, check after check (any lag counts here: the limit is 0 ms, checks every 50 ms). */
describe('a server whose event loop lags for several checks in a row', () => {
  let server: Awaited<ReturnType<typeof appUnder>>;

  beforeAll(async () => {
    server = await appUnder({ ...DEFAULT_PRESSURE_LIMITS, maxEventLoopDelayMs: -1, sustainedChecks: 2, checkIntervalMs: 50 });
  });

  afterAll(async () => server?.close());

  it('answers 503 once the lag has lasted several checks, health still 200', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const refused = await server.app.inject({ method: 'GET', url: '/api/v1/reformes/public/suivi-result' });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ message: MESSAGES.overloaded });
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/health' })).statusCode).toBe(200);
  });
});
