import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { runMigrations } from '../db/migrate.ts';
import { DEMO_PASSWORD, seedDemoData } from '../db/seed/demo.ts';
import { seedReferenceData } from '../db/seed/reference.ts';
import { createTestDatabase } from './test-database.ts';

export { DEMO_PASSWORD };

/**
 * The app of one test file: fresh migrated database with the reference and demo data,
 * private data folders, silent logs. `env` overrides configuration variables; `logStream` receives every log
 * line of the production logger instead (with `LOG_LEVEL` in `env`).
 */
export async function createTestApp(env: Record<string, string> = {}, { logStream }: { logStream?: { write(line: string): void } } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-test-'));
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIST: path.join(dataDir, 'no-web'), ...env });
  const database = await createTestDatabase();
  await runMigrations(database);
  await seedReferenceData(database.db);
  await seedDemoData(database.db);
  const app = await buildApp({ config, database, ...(logStream ? { logStream } : { logger: false }) });
  await app.ready();

  return {
    app,
    database,
    db: database.db,
    config,
    /** Signs in and returns the login data (tokens, features, user). */
    async login(email: string, password = DEMO_PASSWORD) {
      const response = await app.inject({ method: 'POST', url: '/api/v1/api/login', payload: { email, password, device: 'web' } });
      if (response.statusCode !== 200) throw new Error(`login ${email} -> ${response.statusCode} ${response.body}`);
      return response.json().data as { access_token: string; refresh_token: string; features: string[]; user: { id: number } };
    },
    /** The messages written to the outbox, oldest first: headers, a blank line, then the decoded body. */
    outbox(): string[] {
      if (!fs.existsSync(config.outboxDir)) return [];
      return fs
        .readdirSync(config.outboxDir)
        .sort()
        .map((file) => decodeMail(fs.readFileSync(path.join(config.outboxDir, file), 'utf8')));
    },
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Undoes the transfer encoding nodemailer chose (quoted-printable or base64), so tests read plain text. */
function decodeMail(raw: string): string {
  const split = raw.indexOf('\n\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 2);
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return `${headers}\n\n${Buffer.from(body, 'base64').toString('utf8')}`;
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`);
    return `${headers}\n\n${decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'))}`;
  }
  return raw;
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
