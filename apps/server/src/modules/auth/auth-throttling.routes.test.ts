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
    expect(attacker.json()).toEqual({ message: waitMessage(Number(attacker.headers['retry-after'])) });
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
    expect(owner.json()).toEqual({ message: expect.stringMatching(/^Trop de tentatives de connexion\. Réessayez dans \d+ minutes?\.$/) });
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
      expect(responses[0].json()).toEqual({ message: INVALID_RESET });
      expect(statuses.slice(10)).toEqual(Array(50).fill(429));
      expect(responses[59].json()).toEqual({ message: TOO_MANY_REQUESTS });
      expect(Number(responses[59].headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(responses[59].headers['retry-after'])).toBeLessThanOrEqual(60);
      // The 10 wrong links, then one row for the 50 refusals of the minute.
      expect((await refusedResets()) - before).toBe(11);

      // Another client is not refused.
      expect((await recover('jeton-invente-autre', '198.51.100.78')).statusCode).toBe(400);
    });
  });

  describe('forgotten password', () => {
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
          expect(response.json()).toEqual({ message: FORGOT_ANSWER });
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
        expect(response.json()).toEqual({ message: FORGOT_ANSWER });
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
