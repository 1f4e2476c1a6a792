import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { E2E_DIRECTORY } from './support/directory.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT ?? 3100);
// A fresh embedded database per run: the journeys count on the demo data set.
// E2E_PORT and E2E_DATA_DIR let two runs share a machine without deleting each other's database.
const dataDir = path.resolve(root, process.env.E2E_DATA_DIR ?? path.join('e2e', '.data'));

export default defineConfig({
  testDir: './journeys',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', headless: true } }],
  webServer: [
    {
      // The administration's directory (issue 42): a real OpenID provider on loopback, the one the API tests use.
      command: 'node --import tsx e2e/support/directory-provider.ts',
      cwd: root,
      url: `http://127.0.0.1:${E2E_DIRECTORY.providerPort}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 60_000,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 5_000 },
    },
    {
      // The compiled server, as `npm start` runs it (`npm run test:e2e` builds it first).
      command: `rm -rf "${dataDir}" && npm run --silent serve`,
      cwd: root,
      // Readiness (the database answers), not mere liveness.
      url: `http://127.0.0.1:${port}/api/v1/health/ready`,
      reuseExistingServer: false,
      timeout: 120_000,
      // SIGTERM, not the default SIGKILL: the server stops its embedded PostgreSQL rather than leave it running.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        LOGIN_MAX_PER_IP_PER_MINUTE: '1000',
        FORGOT_MAX_PER_ACCOUNT_PER_HOUR: '1000',
        // The links and the directory's callback name the address the browser uses.
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        OIDC_ISSUER: `http://127.0.0.1:${E2E_DIRECTORY.providerPort}`,
        OIDC_CLIENT_ID: E2E_DIRECTORY.clientId,
        OIDC_CLIENT_SECRET: E2E_DIRECTORY.clientSecret,
        OIDC_ACCOUNT_CREATION: 'true',
      },
    },
  ],
});
