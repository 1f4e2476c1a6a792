import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { Config } from '../../config.ts';
import { loginFailures, passwordResetTokens, refreshTokens, users } from '../../db/schema/index.ts';
import { bearer, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/test-app.ts';
import { hashPassword } from './password.ts';
import { emailKey } from './throttles.ts';

const LOGIN = '/api/v1/api/login';
const ME = '/api/v1/api/user';
const FORGOT = '/api/v1/api/forgot-password';
const RECOVERY = '/api/v1/api/recovery-password';
const REFRESH = '/api/v1/api/refresh';
const INVALID_CREDENTIALS = 'Email ou mot de passe incorrect.';
const INVALID_RESET = 'Ce lien de réinitialisation est invalide ou a expiré.';
const TEMPORARY_EXPIRED = "Votre mot de passe temporaire a expiré : demandez-en un nouveau à l'administrateur.";
const FORGOT_ANSWER = 'Si un compte existe pour cet email, un lien de réinitialisation vient de lui être envoyé.';
const NEW_PASSWORD = 'Tournesol-Bleu-42';
const HOUR = 3_600_000;

const waitMessage = (seconds: number) => `Trop de tentatives de connexion. Réessayez dans ${seconds} seconde${seconds > 1 ? 's' : ''}.`;

/** A JWT signed with the server's secret but another HMAC algorithm (or none). */
function tokenSignedWith(algorithm: 'HS384' | 'HS512' | 'none', payload: object, secret: string): string {
  const encode = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');
  const unsigned = `${encode({ alg: algorithm, typ: 'JWT' })}.${encode(payload)}`;
  if (algorithm === 'none') return `${unsigned}.`;
  const hmac = createHmac(algorithm === 'HS384' ? 'sha384' : 'sha512', secret);
  return `${unsigned}.${hmac.update(unsigned).digest('base64url')}`;
}

/** Issue 14 (OWASP ASVS 5.0 L2): sign-in throttling, reset links, session lifetime, temporary passwords, JWT algorithm. */
describe('authentication hardening', () => {
  let t: TestApp;
  let count = 0;

  const createAccount = (fields: Partial<typeof users.$inferInsert> = {}) => {
    count += 1;
    return t.createAccount('saisie', { lastname: 'Kone', firstname: 'Issa', email: `issa.kone${count}@reformes.test`, ...fields });
  };

  const login = (email: string, password = DEMO_PASSWORD, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: LOGIN, remoteAddress, payload: { email, password, device: 'web' } });
  const forgot = (email: string, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: FORGOT, remoteAddress, payload: { email } });
  const answerOf = (response: Awaited<ReturnType<typeof login>>) => ({
    status: response.statusCode,
    message: response.json().message as string,
    retryAfter: response.headers['retry-after'],
  });

  /** The row of an email in login_failures (known or not), for the one client these tests use. */
  async function failuresOf(email: string) {
    const [row] = await t.db
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.email_hash, emailKey(email)));
    return row;
  }

  /** As if the current wait were over. */
  async function endWait(email: string) {
    await t.db
      .update(loginFailures)
      .set({ retry_at: sql`now() - interval '1 second'` })
      .where(eq(loginFailures.email_hash, emailKey(email)));
  }

  /** Another server instance on the same database, with some settings changed. */
  async function anotherInstance(overrides: Partial<Config>) {
    const app = await buildApp({ config: { ...t.config, ...overrides }, database: t.database, logger: false });
    await app.ready();
    return app;
  }

  beforeAll(async () => {
    // The waits grow 2, 4, 8, 16 then stay at 16 seconds.
    t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000', LOGIN_MAX_DELAY_SECONDS: '16' });
  });
  afterAll(() => t.close());

  describe('sign-in failures per email', () => {
    it('counts 20 concurrent wrong passwords exactly: 5 are checked (401), the other 15 wait (429)', async () => {
      const user = await createAccount();
      const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => login(user.email, `Mauvais-${i}-motdepasse`)));
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(15);
      // Set by the fifth claim, before any of the five passwords was checked.
      expect(await failuresOf(user.email)).toMatchObject({ failures: 5, retry_at: expect.any(Date) });
      const waiting = responses.find((response) => response.statusCode === 429);
      expect(waiting?.json()).toMatchObject({ message: waitMessage(Number(waiting?.headers['retry-after'])) });
    });

    it('answers 20 concurrent attempts on an unknown email exactly as on an account', async () => {
      const responses = await Promise.all(Array.from({ length: 20 }, () => login('personne-ici@reformes.test', 'Mauvais-motdepasse')));
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(15);
      expect(await failuresOf('personne-ici@reformes.test')).toMatchObject({ failures: 5 });
    });

    it('doubles the wait after each further failure, up to LOGIN_MAX_DELAY_SECONDS, with Retry-After and a French message', async () => {
      const user = await createAccount();
      for (let i = 0; i < 5; i++) expect((await login(user.email, 'Mauvais-motdepasse')).statusCode).toBe(401);
      const waits: number[] = [];
      for (const _step of [1, 2, 3, 4, 5]) {
        const waiting = await login(user.email, 'Mauvais-motdepasse');
        expect(waiting.statusCode).toBe(429);
        const seconds = Number(waiting.headers['retry-after']);
        expect(waiting.json()).toMatchObject({ message: waitMessage(seconds) });
        waits.push(seconds);
        await endWait(user.email);
        expect((await login(user.email, 'Mauvais-motdepasse')).statusCode).toBe(401);
      }
      expect(waits).toEqual([2, 4, 8, 16, 16]);
    });

    it('keeps the longest wait after thousands of failures (no overflow)', async () => {
      const email = 'siege@reformes.test';
      await login(email, 'Mauvais-motdepasse');
      await t.db
        .update(loginFailures)
        .set({ failures: 5000 })
        .where(eq(loginFailures.email_hash, emailKey(email)));
      expect((await login(email, 'Mauvais-motdepasse')).statusCode).toBe(401);
      const waiting = await login(email, 'Mauvais-motdepasse');
      expect(waiting.statusCode).toBe(429);
      expect(waiting.headers['retry-after']).toBe('16');
    });

    it('gives the same answers, one by one, for an unknown email as for an account', async () => {
      const user = await createAccount();
      async function journey(email: string) {
        const answers = [];
        for (let i = 0; i < 6; i++) answers.push(answerOf(await login(email, 'Mauvais-motdepasse')));
        await endWait(email);
        for (let i = 0; i < 2; i++) answers.push(answerOf(await login(email, 'Mauvais-motdepasse')));
        return answers;
      }
      const known = await journey(user.email);
      const unknown = await journey('jamais-inscrit@reformes.test');
      expect(unknown).toEqual(known);
      expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 401, 429, 401, 429]);
      expect(known[0]).toEqual({ status: 401, message: INVALID_CREDENTIALS, retryAfter: undefined });
      expect(known[7]).toEqual({ status: 429, message: waitMessage(4), retryAfter: '4' });
    });

    it('does not lengthen the wait for attempts made during it, and the owner signs in right after it', async () => {
      const user = await createAccount();
      for (let i = 0; i < 5; i++) await login(user.email, 'Mauvais-motdepasse');
      const before = await failuresOf(user.email);
      for (let i = 0; i < 10; i++) expect((await login(user.email, 'Mauvais-motdepasse')).statusCode).toBe(429);
      expect(await failuresOf(user.email)).toEqual(before);

      await endWait(user.email);
      expect((await login(user.email)).statusCode).toBe(200);
      // A success clears the count: the next mistake is not made to wait.
      expect(await failuresOf(user.email)).toBeUndefined();
      expect((await login(user.email, 'Mauvais-motdepasse')).statusCode).toBe(401);
    });

    it("counts the failures of an email per client: another client's failures do not make the owner wait (issue 29)", async () => {
      const user = await createAccount();
      for (let i = 0; i < 6; i++) await login(user.email, 'Mauvais-motdepasse', '198.51.100.1');
      expect((await login(user.email, DEMO_PASSWORD, '198.51.100.1')).statusCode).toBe(429);
      expect((await login(user.email, DEMO_PASSWORD, '198.51.100.99')).statusCode).toBe(200);
      // The ceiling across clients has its own tests (auth-throttling.routes.test.ts).
    });

    it('lets an account sign in at once after an administrator sets a new password', async () => {
      const user = await createAccount();
      for (let i = 0; i < 6; i++) await login(user.email, 'Mauvais-motdepasse');
      const admin = await t.login('admin@reformes.test');
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/v1/reset-password',
        headers: bearer(admin.access_token),
        payload: { id: user.id, email: user.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      });
      expect(reset.statusCode).toBe(200);
      expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    });
  });

  describe('rate limits kept in the database', () => {
    it('shares the per-address limit between instances and keeps it across a restart', async () => {
      const first = await anotherInstance({ loginMaxPerIpPerMinute: 3 });
      let second = await anotherInstance({ loginMaxPerIpPerMinute: 3 });
      const attempt = (app: typeof first) =>
        app.inject({
          method: 'POST',
          url: LOGIN,
          remoteAddress: '203.0.113.10',
          payload: { email: 'saisie@reformes.test', password: DEMO_PASSWORD },
        });
      try {
        expect((await attempt(first)).statusCode).toBe(200);
        expect((await attempt(second)).statusCode).toBe(200);
        expect((await attempt(first)).statusCode).toBe(200);
        const fourth = await attempt(second);
        expect(fourth.statusCode).toBe(429);
        expect(fourth.json()).toMatchObject({
          message: expect.stringMatching(/^Trop de tentatives de connexion\. Réessayez dans (\d+ secondes?|1 minute)\.$/),
        });
        expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
        expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(60);

        await second.close();
        second = await anotherInstance({ loginMaxPerIpPerMinute: 3 });
        expect((await attempt(second)).statusCode).toBe(429);
      } finally {
        await first.close();
        await second.close();
      }
    });

    it('with TRUST_PROXY, counts each client behind the proxy apart; without it, the proxy is one address', async () => {
      const behindProxy = await anotherInstance({ loginMaxPerIpPerMinute: 2, trustProxy: ['10.9.9.9'] });
      const direct = await anotherInstance({ loginMaxPerIpPerMinute: 2 });
      const attempt = (app: typeof direct, client: string) =>
        app.inject({
          method: 'POST',
          url: LOGIN,
          remoteAddress: '10.9.9.9',
          headers: { 'x-forwarded-for': client },
          payload: { email: 'saisie@reformes.test', password: DEMO_PASSWORD },
        });
      try {
        for (const client of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
          expect((await attempt(behindProxy, client)).statusCode).toBe(200);
          expect((await attempt(behindProxy, client)).statusCode).toBe(200);
        }
        const statuses = [];
        for (const client of ['192.0.2.4', '192.0.2.5', '192.0.2.6']) statuses.push((await attempt(direct, client)).statusCode);
        // Every client counts as the proxy's address.
        expect(statuses).toEqual([200, 200, 429]);
      } finally {
        await behindProxy.close();
        await direct.close();
      }
    });
  });

  describe('forgotten password', () => {
    it('mails at most 3 links an hour per email, with the same answer past the limit', async () => {
      const user = await createAccount();
      const before = t.outbox().length;
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push((await forgot(user.email, `192.0.2.${100 + i}`)).json());
      expect(answers).toEqual(Array(5).fill({ message: FORGOT_ANSWER }));
      expect(t.outbox().slice(before)).toHaveLength(3);
      // The same answers for an email that no account has.
      for (let i = 0; i < 5; i++) expect((await forgot('aucun-compte@reformes.test')).json()).toMatchObject({ message: FORGOT_ANSWER });
    });
  });

  describe('reset links after a password change', () => {
    let requester = 0;
    async function pendingResetLink(email: string): Promise<string> {
      const before = t.outbox().length;
      // Each from its own client: one client gets one link a minute for an email (issue 40, item 7).
      requester += 1;
      await forgot(email, `192.0.2.${requester}`);
      const mail = t.outbox().slice(before)[0];
      const token = /\/auth\/recovery-password\/([A-Za-z0-9_-]+)/.exec(mail)?.[1];
      if (!token) throw new Error(`no link in ${mail}`);
      return token;
    }
    const recover = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: RECOVERY,
        payload: { token, password: 'Autre-Tournesol-77', password_confirmation: 'Autre-Tournesol-77' },
      });

    it('voids a pending link when the user changes the password', async () => {
      const user = await createAccount();
      const token = await pendingResetLink(user.email);
      const { access_token } = await t.login(user.email);
      const change = await t.app.inject({
        method: 'POST',
        url: '/api/v1/api/change-password',
        headers: bearer(access_token),
        payload: { old_password: DEMO_PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
      });
      expect(change.statusCode).toBe(200);
      const response = await recover(token);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: INVALID_RESET });
      expect((await login(user.email, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('voids every other pending link when one is used, and when an administrator resets the password', async () => {
      const user = await createAccount();
      const first = await pendingResetLink(user.email);
      const second = await pendingResetLink(user.email);
      expect((await recover(second)).statusCode).toBe(200);
      expect((await recover(first)).statusCode).toBe(400);

      const third = await pendingResetLink(user.email);
      await t.db
        .update(users)
        .set({ password_hash: await hashPassword(NEW_PASSWORD) })
        .where(eq(users.id, user.id));
      expect((await recover(third)).statusCode).toBe(400);
      const rows = await t.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.user_id, user.id));
      expect(rows.every((row) => row.used_at !== null)).toBe(true);
    });
  });

  describe('refresh-token lifetime', () => {
    it('counts a session from its sign-in: rotations keep the family expiry, and past it the refresh token is refused', async () => {
      const user = await createAccount();
      const signIn = await t.login(user.email);
      let refreshToken = signIn.refresh_token;
      for (let i = 0; i < 3; i++) {
        const rotated = await t.app.inject({ method: 'POST', url: REFRESH, payload: { refresh_token: refreshToken } });
        expect(rotated.statusCode).toBe(200);
        refreshToken = rotated.json().data.refresh_token;
      }
      const rows = await t.db.select().from(refreshTokens).where(eq(refreshTokens.user_id, user.id));
      expect(rows).toHaveLength(4);
      const expiries = new Set(rows.map((row) => row.expires_at.getTime()));
      expect(expiries.size).toBe(1);
      const [expiry] = expiries;
      expect(Math.abs(expiry - (rows[0].created_at.getTime() + 30 * 24 * HOUR))).toBeLessThan(60_000);

      // 30 days after the sign-in, however often it was renewed.
      await t.db
        .update(refreshTokens)
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where(eq(refreshTokens.user_id, user.id));
      const late = await t.app.inject({ method: 'POST', url: REFRESH, payload: { refresh_token: refreshToken } });
      expect(late.statusCode).toBe(401);
    });
  });

  describe('temporary passwords', () => {
    it('refuses a temporary password set more than 72 hours ago, telling to ask for a new one (401)', async () => {
      const user = await createAccount({ must_change_password: true, password_changed_at: new Date(Date.now() - 73 * HOUR) });
      const response = await login(user.email);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: TEMPORARY_EXPIRED });
      // Only the right password learns it.
      expect((await login(user.email, 'Mauvais-motdepasse')).json()).toMatchObject({ message: INVALID_CREDENTIALS });
    });

    it('accepts a temporary password within 72 hours, and one an administrator has just set again', async () => {
      const recent = await createAccount({ must_change_password: true, password_changed_at: new Date(Date.now() - 71 * HOUR) });
      expect((await login(recent.email)).statusCode).toBe(200);

      const old = await createAccount({ must_change_password: true, password_changed_at: new Date(Date.now() - 100 * HOUR) });
      const admin = await t.login('admin@reformes.test');
      const reset = await t.app.inject({
        method: 'POST',
        url: '/api/v1/reset-password',
        headers: bearer(admin.access_token),
        payload: { id: old.id, email: old.email, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD },
      });
      expect(reset.statusCode).toBe(200);
      const signIn = await login(old.email, NEW_PASSWORD);
      expect(signIn.statusCode).toBe(200);
      expect(signIn.json().data.user.must_change_password).toBe(true);
    });

    it('does not expire a password the user chose, however old', async () => {
      const user = await createAccount({ password_changed_at: new Date(Date.now() - 400 * 24 * HOUR) });
      expect((await login(user.email)).statusCode).toBe(200);
    });
  });

  describe('JWT algorithm', () => {
    it('accepts only HS256: the same claims signed with HS384, HS512 or none are refused (401)', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const header = JSON.parse(Buffer.from(access_token.split('.')[0], 'base64url').toString());
      expect(header.alg).toBe('HS256');
      expect((await t.app.inject({ method: 'GET', url: ME, headers: bearer(access_token) })).statusCode).toBe(200);

      const claims = JSON.parse(Buffer.from(access_token.split('.')[1], 'base64url').toString());
      for (const algorithm of ['HS384', 'HS512', 'none'] as const) {
        const forged = tokenSignedWith(algorithm, claims, t.config.jwtSecret);
        const response = await t.app.inject({ method: 'GET', url: ME, headers: bearer(forged) });
        expect(response.statusCode, algorithm).toBe(401);
      }
    });
  });
});
