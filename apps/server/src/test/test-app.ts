import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { type App, buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { roles, structures, userRoles, users } from '../db/schema/index.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../db/seed/demo.ts';
import { hashPassword } from '../modules/auth/password.ts';
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
  const database = await createTestDatabase('seeded');
  const app = await buildApp({ config, database, ...(logStream ? { logStream } : { logger: false }) });
  await app.ready();
  // A route may leave work for after its answer (the reset mail of forgot-password): here a request resolves once that
  // work is done too, so a test reads the outbox and the audit trail right after it. To time the answer alone, build
  // the app with `buildApp` (auth-background.routes.test.ts).
  const inject = app.inject.bind(app) as (options: InjectOptions) => Promise<LightMyRequestResponse>;
  app.inject = (async (options: InjectOptions) => {
    const response = await inject(options);
    await app.settled();
    return response;
  }) as unknown as typeof app.inject;

  /** Signs in and returns the login data (tokens, features, user). */
  async function login(email: string, password = DEMO_PASSWORD): Promise<Session> {
    const response = await app.inject({ method: 'POST', url: '/api/v1/api/login', payload: { email, password, device: 'web' } });
    if (response.statusCode !== 200) throw new Error(`login ${email} -> ${response.statusCode} ${response.body}`);
    return response.json().data as Session;
  }

  let accounts = 0;
  /**
   * A fresh account of `role` in the structure MS (password DEMO_PASSWORD), so that tests that change
   * accounts do not interfere: `await t.createAccount('saisie', { must_change_password: true })`.
   */
  async function createAccount(role = 'saisie', fields: Partial<typeof users.$inferInsert> = {}) {
    accounts += 1;
    const [structure] = await database.db.select({ id: structures.id }).from(structures).where(eq(structures.sigl, 'MS'));
    const [roleRow] = await database.db.select({ id: roles.id }).from(roles).where(eq(roles.name, role));
    const [user] = await database.db
      .insert(users)
      .values({
        lastname: 'Test',
        firstname: `Compte ${accounts}`,
        address: 'Cité administrative',
        email: `compte${accounts}@reformes.test`,
        phone: '0611111111',
        structure_id: structure.id,
        password_hash: await hashPassword(DEMO_PASSWORD),
        ...fields,
      })
      .returning();
    await database.db.insert(userRoles).values({ user_id: user.id, role_id: roleRow.id, position: 0 });
    return user;
  }

  return {
    app,
    database,
    createAccount,
    db: database.db,
    config,
    login,
    /**
     * Signs in as a demo role (or any email) and returns a caller of the API with that session:
     * `const saisie = await t.as('saisie'); await saisie.get('reformes')`.
     */
    async as(who: DemoRole | string, password = DEMO_PASSWORD): Promise<Caller> {
      const email = DEMO_ACCOUNTS.find((account) => account.role === who)?.email ?? who;
      return callerOf(app, await login(email, password));
    },
    /** A caller with a session already opened (`t.login`): `t.caller(session)`. */
    caller: (session: Session) => callerOf(app, session),
    /** A caller without a session (no Authorization header). */
    anonymous: anonymousCaller(app),
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

/** Undoes the transfer encoding nodemailer chose (quoted-printable or base64), so tests read plain text; each part of a multipart mail (text and HTML) alike. */
function decodeMail(raw: string): string {
  const split = raw.indexOf('\n\n');
  const headers = raw.slice(0, split);
  const body = raw.slice(split + 2);
  const boundary = /content-type:\s*multipart\/[\s\S]*?boundary="?([^"\n;]+)/i.exec(headers)?.[1];
  if (boundary) {
    const parts = body.split(`--${boundary}`).slice(1, -1);
    return `${headers}\n\n${parts.map((part) => decodeMail(part.replace(/^\n/, ''))).join('\n')}`;
  }
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'base64') return `${headers}\n\n${Buffer.from(body, 'base64').toString('utf8')}`;
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`);
    return `${headers}\n\n${decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'))}`;
  }
  return raw;
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** The login data: tokens, rights and user. */
export interface Session {
  access_token: string;
  refresh_token: string;
  features: string[];
  user: { id: number };
}

/** The built-in roles of the demo accounts (`DEMO_ACCOUNTS`): `'saisie central'` is central@reformes.test. */
export type DemoRole = (typeof DEMO_ACCOUNTS)[number]['role'];

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Payload = InjectOptions['payload'];
type Send = (url: string, payload?: Payload) => Promise<LightMyRequestResponse>;

/** Calls the API: `url` is relative to `/api/v1/`; a signed-in caller's bearer token goes with every request. */
export interface AnonymousCaller {
  get: Send;
  post: Send;
  put: Send;
  patch: Send;
  delete: Send;
  /** For tables of requests: `send('PUT', 'objectifs/3', body)`. */
  send(method: Method, url: string, payload?: Payload): Promise<LightMyRequestResponse>;
  /** The headers sent (the Authorization header of a session), for the requests the caller does not cover. */
  headers: Record<string, string>;
}

export interface Caller extends AnonymousCaller {
  session: Session;
}

function sender(app: App, headers: Record<string, string>): AnonymousCaller {
  const send = (method: Method, url: string, payload?: Payload) => app.inject({ method, url: `/api/v1/${url}`, headers, payload });
  const bound =
    (method: Method): Send =>
    (url, payload) =>
      send(method, url, payload);
  return { get: bound('GET'), post: bound('POST'), put: bound('PUT'), patch: bound('PATCH'), delete: bound('DELETE'), send, headers };
}

function callerOf(app: App, session: Session): Caller {
  return { ...sender(app, bearer(session.access_token)), session };
}

function anonymousCaller(app: App): AnonymousCaller {
  return sender(app, {});
}

export function bearer(token: string) {
  return { authorization: `Bearer ${token}` };
}
