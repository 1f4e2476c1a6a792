import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { auditLog, loginFailures } from '../../db/schema/index.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/test-app.ts';
import { emailKey } from './throttles.ts';

const LOGIN = '/api/v1/api/login';
const FORGOT = '/api/v1/api/forgot-password';
const RECOVERY = '/api/v1/api/recovery-password';
const INVALID_RESET = 'Ce lien de réinitialisation est invalide ou a expiré.';
const TOO_MANY_REQUESTS = 'Trop de requêtes. Réessayez dans quelques instants.';
const FORGOT_ANSWER = 'Si un compte existe pour cet email, un lien de réinitialisation vient de lui être envoyé.';
const ATTACKER = '198.51.100.66';
const OWNER = '203.0.113.20';

const waitMessage = (seconds: number) => `Trop de tentatives de connexion. Réessayez dans ${seconds} seconde${seconds > 1 ? 's' : ''}.`;

/** Issue 29: the sign-in back-off per account and client, the ceiling per account, bounded audit rows, reset mails after the answer. */
describe('sign-in back-off per account and client', () => {
  let t: TestApp;
  let count = 0;

  const createAccount = () => {
    count += 1;
    return t.createAccount('saisie', { lastname: 'Diallo', firstname: 'Awa', email: `awa.diallo${count}@reformes.test` });
  };
  const login = (email: string, password: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: LOGIN, remoteAddress, payload: { email, password, device: 'web' } });

  /** The audit rows of refused sign-ins of `email` for `reason`. */
  async function signInFailures(email: string, reason: string) {
    return t.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'login'),
          eq(auditLog.result, 'failure'),
          eq(auditLog.actor_email, email),
          sql`${auditLog.details}->>'reason' = ${reason}`,
        ),
      );
  }

  beforeAll(async () => {
    // A small ceiling per account, so that a handful of clients reach it; waits of 2, 4, 8... up to 900 seconds.
    t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000', LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR: '12' });
  });
  afterAll(() => t.close());

  it("lets the owner in from another client while an attacker's client hammers the account, and keeps the attacker waiting", async () => {
    const user = await createAccount();
    const attack = [];
    for (let i = 0; i < 30; i++) attack.push((await login(user.email, `Mauvais-${i}-motdepasse`, ATTACKER)).statusCode);
    expect(attack.filter((status) => status === 401)).toHaveLength(5);
    expect(attack.filter((status) => status === 429)).toHaveLength(25);

    const owner = await login(user.email, DEMO_PASSWORD, OWNER);
    expect(owner.statusCode).toBe(200);

    // The owner's success gives the attacker's client no fresh guesses, not even with the right password.
    const attacker = await login(user.email, DEMO_PASSWORD, ATTACKER);
    expect(attacker.statusCode).toBe(429);
    expect(attacker.json()).toMatchObject({ message: waitMessage(Number(attacker.headers['retry-after'])) });
    const [row] = await t.db
      .select()
      .from(loginFailures)
      .where(and(eq(loginFailures.email_hash, emailKey(user.email)), eq(loginFailures.client, ATTACKER)));
    expect(row).toMatchObject({ failures: 5, retry_at: expect.any(Date) });
  });

  it('makes every client wait once the account has had LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR failures from many clients', async () => {
    const user = await createAccount();
    for (let i = 0; i < 12; i++) expect((await login(user.email, 'Mauvais-motdepasse', `192.0.2.${i + 1}`)).statusCode).toBe(401);

    // 12 an hour: the next attempt waits until one of them has aged out, 3600 / 12 = 300 seconds.
    const owner = await login(user.email, DEMO_PASSWORD, OWNER);
    expect(owner.statusCode).toBe(429);
    const seconds = Number(owner.headers['retry-after']);
    expect(seconds).toBeGreaterThan(295);
    expect(seconds).toBeLessThanOrEqual(300);
    expect(owner.json()).toMatchObject({
      message: expect.stringMatching(/^Trop de tentatives de connexion\. Réessayez dans \d+ minutes?\.$/),
    });
    // A refusal by the ceiling does not count in the client's own back-off.
    const rows = await t.db
      .select()
      .from(loginFailures)
      .where(eq(loginFailures.email_hash, emailKey(user.email)));
    expect(rows.map((row) => row.client)).not.toContain(OWNER);

    // As if an hour had passed: the count has drained, the owner signs in.
    await t.db.execute(
      sql`update login_account_failures set counted_at = now() - interval '1 hour' where email_hash = ${emailKey(user.email)}`,
    );
    expect((await login(user.email, DEMO_PASSWORD, OWNER)).statusCode).toBe(200);
  });

  it('does not count right passwords against the ceiling of the account', async () => {
    const user = await createAccount();
    for (let i = 0; i < 20; i++) expect((await login(user.email, DEMO_PASSWORD, `192.0.2.${100 + (i % 3)}`)).statusCode).toBe(200);
  });

  it('writes one audit row for a flood of refused sign-ins from one client, not one per request', async () => {
    const user = await createAccount();
    const statuses = [];
    for (let i = 0; i < 40; i++) statuses.push((await login(user.email, 'Mauvais-motdepasse', ATTACKER)).statusCode);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
    expect(await signInFailures(user.email, 'wrong_password')).toHaveLength(5);
    expect(await signInFailures(user.email, 'throttled')).toHaveLength(1);
  });

  it('counts the addresses of one IPv6 /64 as one client, and an IPv4-mapped address as its IPv4 (issue 40, item 8)', async () => {
    const user = await createAccount();
    for (let i = 1; i <= 5; i++) expect((await login(user.email, 'Mauvais-motdepasse', `2001:db8::${i}`)).statusCode).toBe(401);
    // The same /64 spelt otherwise waits; the next /64 has its own budget.
    expect((await login(user.email, 'Mauvais-motdepasse', '2001:0db8:0000:0000:ffff::9')).statusCode).toBe(429);
    expect((await login(user.email, DEMO_PASSWORD, '2001:db8::77')).statusCode).toBe(429);
    expect((await login(user.email, 'Mauvais-motdepasse', '2001:db8:0:1::1')).statusCode).toBe(401);

    const other = await createAccount();
    for (let i = 0; i < 5; i++) expect((await login(other.email, 'Mauvais-motdepasse', '192.0.2.50')).statusCode).toBe(401);
    expect((await login(other.email, DEMO_PASSWORD, '::ffff:192.0.2.50')).statusCode).toBe(429);
  });

  describe('a device that signed in before (issue 40, item 8)', () => {
    const deviceCookieOf = (response: { headers: Record<string, unknown> }) => {
      const header = [response.headers['set-cookie'] ?? []].flat().map(String);
      return header.find((cookie) => cookie.startsWith('reformes_device='));
    };
    const loginWith = (email: string, password: string, remoteAddress: string, cookie?: string) =>
      t.app.inject({
        method: 'POST',
        url: LOGIN,
        remoteAddress,
        headers: cookie === undefined ? {} : { cookie },
        payload: { email, password, device: 'web' },
      });
    const fillCeiling = async (email: string) => {
      for (let i = 0; i < 12; i++) expect((await login(email, 'Mauvais-motdepasse', `198.18.${count}.${i + 1}`)).statusCode).toBe(401);
    };

    it('gets a signed, HttpOnly, SameSite=Strict cookie limited to the sign-in paths, and passes the account ceiling with it', async () => {
      const user = await createAccount();
      const signedIn = await loginWith(user.email, DEMO_PASSWORD, OWNER);
      expect(signedIn.statusCode).toBe(200);
      const setCookie = deviceCookieOf(signedIn);
      expect(setCookie).toMatch(
        /^reformes_device=[A-Za-z0-9_.-]+; Path=\/api\/v1\/api\/login; Max-Age=2592000; HttpOnly; SameSite=Strict$/,
      );
      const cookie = String(setCookie).split(';')[0];
      await fillCeiling(user.email);

      // A new client waits; the device that signed in before is still checked, from whatever address.
      expect((await loginWith(user.email, DEMO_PASSWORD, '203.0.113.99')).statusCode).toBe(429);
      expect((await loginWith(user.email, DEMO_PASSWORD, '203.0.113.98', cookie)).statusCode).toBe(200);
      expect((await loginWith(user.email, 'Mauvais-motdepasse', '203.0.113.98', cookie)).statusCode).toBe(401);

      // Its own client back-off still applies.
      for (let i = 0; i < 4; i++) expect((await loginWith(user.email, 'Mauvais-motdepasse', '203.0.113.97', cookie)).statusCode).toBe(401);
      expect((await loginWith(user.email, 'Mauvais-motdepasse', '203.0.113.97', cookie)).statusCode).toBe(401);
      expect((await loginWith(user.email, DEMO_PASSWORD, '203.0.113.97', cookie)).statusCode).toBe(429);
    });

    it("does not let a forged, expired or other account's cookie pass the ceiling", async () => {
      const user = await createAccount();
      const other = await createAccount();
      const otherCookie = String(deviceCookieOf(await loginWith(other.email, DEMO_PASSWORD, OWNER))).split(';')[0];
      const ownCookie = String(deviceCookieOf(await loginWith(user.email, DEMO_PASSWORD, OWNER))).split(';')[0];
      await fillCeiling(user.email);
      const [expires, mac] = ownCookie.slice('reformes_device='.length).split('.');
      const forged = [
        otherCookie,
        `reformes_device=${expires}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`,
        `reformes_device=${Number(expires) + 86_400}.${mac}`,
        'reformes_device=n-importe-quoi',
      ];
      for (const cookie of forged)
        expect((await loginWith(user.email, DEMO_PASSWORD, '203.0.113.96', cookie)).statusCode, cookie).toBe(429);
      // Expired: a cookie signed rightly for a moment already past.
      const { deviceCookieValue } = await import('./device-cookie.ts');
      const expired = deviceCookieValue(t.config.jwtSecret, user.email, Math.floor(Date.now() / 1000) - 1);
      expect((await loginWith(user.email, DEMO_PASSWORD, '203.0.113.96', `reformes_device=${expired}`)).statusCode).toBe(429);
      expect((await loginWith(user.email, DEMO_PASSWORD, '203.0.113.96', ownCookie)).statusCode).toBe(200);
    });
  });

  describe('reset links', () => {
    const recover = (token: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: RECOVERY,
        remoteAddress,
        payload: { token, password: 'Autre-Tournesol-77', password_confirmation: 'Autre-Tournesol-77' },
      });
    const refusedResets = async () =>
      (
        await t.db
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, 'password.reset'), eq(auditLog.result, 'failure')))
      ).length;

    it('refuses a client past 10 reset-link attempts a minute (429, Retry-After) and writes a bounded number of audit rows', async () => {
      const before = await refusedResets();
      const responses = [];
      for (let i = 0; i < 60; i++) responses.push(await recover(`jeton-invente-${i}`, '198.51.100.77'));
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
      expect(responses[0].json()).toMatchObject({ message: INVALID_RESET });
      expect(statuses.slice(10)).toEqual(Array(50).fill(429));
      expect(responses[59].json()).toMatchObject({ message: TOO_MANY_REQUESTS });
      expect(Number(responses[59].headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(responses[59].headers['retry-after'])).toBeLessThanOrEqual(60);
      // The 10 wrong links, then one row for the 50 refusals of the minute.
      expect((await refusedResets()) - before).toBe(11);

      // Another client is not refused.
      expect((await recover('jeton-invente-autre', '198.51.100.78')).statusCode).toBe(400);
    });
  });

  describe('forgotten password', () => {
    it('writes one audit row a minute per client and reason and one job per client and email, with the same answers (issue 40, item 7)', async () => {
      const user = await createAccount();
      const client = '192.0.2.150';
      const emails = [
        user.email,
        'inconnu-1@reformes.test',
        'inconnu-2@reformes.test',
        'inconnu-3@reformes.test',
        'inconnu-4@reformes.test',
      ];
      const jobsBefore = (await t.database.pool.query("select count(*)::int as n from jobs where kind = 'reset-link'")).rows[0].n;
      const mailsBefore = t.outbox().length;
      const answers = [];
      for (let i = 0; i < 50; i++) {
        const response = await t.app.inject({ method: 'POST', url: FORGOT, remoteAddress: client, payload: { email: emails[i % 5] } });
        answers.push([response.statusCode, response.body]);
      }
      expect(answers).toEqual(Array(50).fill([200, JSON.stringify({ message: FORGOT_ANSWER })]));
      const jobs = (await t.database.pool.query("select count(*)::int as n from jobs where kind = 'reset-link'")).rows[0].n - jobsBefore;
      expect(jobs).toBe(emails.length);
      const rows = await t.db
        .select({ result: auditLog.result, details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'password.reset_request'), eq(auditLog.ip, client)));
      expect(rows.filter((row) => row.result === 'failure').map((row) => row.details)).toEqual([{ reason: 'unknown_email' }]);
      expect(rows.filter((row) => row.result === 'success')).toHaveLength(1);
      // The owner of the account still gets a link.
      expect(
        t
          .outbox()
          .slice(mailsBefore)
          .filter((mail) => mail.includes(user.email)),
      ).toHaveLength(1);
    });

    it('answers at once for a known and an unknown email, before a slow mail server has taken the link', async () => {
      const user = await createAccount();
      const sent: MailMessage[] = [];
      const slowMailer = {
        async send(message: MailMessage) {
          await new Promise((resolve) => setTimeout(resolve, 2000));
          sent.push(message);
        },
      };
      const app = await buildApp({ config: t.config, database: t.database, logger: false, mailer: slowMailer });
      await app.ready();
      try {
        for (const email of [user.email, 'personne-ici@reformes.test']) {
          const started = performance.now();
          const response = await app.inject({ method: 'POST', url: FORGOT, remoteAddress: '192.0.2.200', payload: { email } });
          expect(response.statusCode).toBe(200);
          expect(response.json()).toMatchObject({ message: FORGOT_ANSWER });
          expect(performance.now() - started, email).toBeLessThan(1000);
        }
        expect(sent).toEqual([]);
        await app.settled();
        expect(sent.map((message) => message.to)).toEqual([user.email]);
        expect(sent[0].text).toMatch(/\/auth\/recovery-password\/[A-Za-z0-9_-]+/);
      } finally {
        await app.close();
      }
    });

    it('keeps a mail that fails for a later attempt, with its error; the answer stays the same', async () => {
      const user = await createAccount();
      const logged: string[] = [];
      const failingMailer = {
        async send() {
          throw new Error('serveur SMTP injoignable');
        },
      };
      const app = await buildApp({
        config: { ...t.config, logLevel: 'error' },
        database: t.database,
        logStream: { write: (line: string) => logged.push(line) },
        mailer: failingMailer,
      });
      await app.ready();
      try {
        const response = await app.inject({ method: 'POST', url: FORGOT, remoteAddress: '192.0.2.201', payload: { email: user.email } });
        expect(response.json()).toMatchObject({ message: FORGOT_ANSWER });
        await app.settled();
        const { rows } = await t.database.pool.query(
          "select attempts, last_error, run_at > now() as later, done_at from jobs where kind = 'mail' and payload->>'to' = $1",
          [user.email],
        );
        expect(rows).toEqual([{ attempts: 1, last_error: 'serveur SMTP injoignable', later: true, done_at: null }]);
      } finally {
        await app.close();
      }
    });
  });
});
