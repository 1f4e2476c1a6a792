import { MESSAGES } from '@reformes/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { auditLog } from '../../db/schema/index.ts';
import { type Caller, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/test-app.ts';

const NEW_PASSWORD = 'Horizon-Lagune-2031!';
const SIGNATURE = "Si vous n'êtes pas à l'origine de ce changement, contactez sans attendre un administrateur de l'application.";

/** ASVS 6.3.7: a change of password or of email is told to the account (issue 29). */
describe('security notices by mail', { timeout: 120_000 }, () => {
  let t: TestApp;
  let admin: Caller;

  const recipientOf = (mail: string) => /^To: (.*)$/m.exec(mail)?.[1]?.trim();
  const mailsTo = (email: string) => t.outbox().filter((mail) => recipientOf(mail) === email);

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000' });
    admin = await t.as('admin');
  });
  afterAll(() => t.close());

  it('after the first password replaces the temporary one', async () => {
    const user = await t.createAccount('saisie', { must_change_password: true });
    const session = await t.as(user.email);
    const changed = await session.post('api/change-first-password', { password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(200);
    const [notice] = mailsTo(user.email);
    expect(notice).toContain(`Bonjour ${user.firstname} ${user.lastname},`);
    expect(notice).toContain('Le mot de passe temporaire de votre compte Réformes a été remplacé le ');
    expect(notice).toContain(SIGNATURE);
    expect(notice).not.toContain(NEW_PASSWORD);
  });

  it('after a reset by link, and the notice holds no link', async () => {
    const user = await t.createAccount('saisie');
    await t.anonymous.post('api/forgot-password', { email: user.email });
    const token = /\/auth\/recovery-password\/([A-Za-z0-9_-]+)/.exec(mailsTo(user.email)[0] ?? '')?.[1] ?? '';
    const reset = await t.anonymous.post('api/recovery-password', { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
    expect(reset.statusCode, reset.body).toBe(200);
    const notice = mailsTo(user.email)[1];
    expect(notice).toContain('Le mot de passe de votre compte Réformes a été réinitialisé par un lien de réinitialisation le ');
    expect(notice).not.toContain(token);
    expect(notice).not.toContain('/auth/recovery-password/');
    expect(notice).not.toContain(NEW_PASSWORD);
  });

  it("after an administrator's reset, without the temporary password", async () => {
    const user = await t.createAccount('saisie');
    const reset = await admin.post('reset-password', {
      id: user.id,
      email: user.email,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const [notice] = mailsTo(user.email);
    expect(notice).toContain('Un administrateur a donné un mot de passe temporaire à votre compte Réformes le ');
    expect(notice).not.toContain(NEW_PASSWORD);
  });

  it('after a change of email, to the old address; the other sessions end, not the caller’s', async () => {
    const user = await t.createAccount('saisie');
    const session = await t.as(user.email);
    const elsewhere = await t.as(user.email);
    const next = `nouvelle-${user.id}@reformes.test`;
    const changed = await session.post('api/user-update', { email: next, current_password: DEMO_PASSWORD });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(mailsTo(user.email).at(-1)).toContain("L'adresse email de votre compte Réformes a été changée le ");
    expect(mailsTo(next)).toEqual([]);
    expect((await session.get('api/user')).statusCode).toBe(200);
    expect((await elsewhere.get('api/user')).statusCode).toBe(401);
  });

  it('a change of email counts wrong current passwords like sign-ins (429 past the limit) and audits them', async () => {
    const user = await t.createAccount('saisie');
    const session = await t.as(user.email);
    const change = (current_password: string) =>
      session.post('api/user-update', { email: `autre-${user.id}@reformes.test`, current_password });
    const wrong = await change('Pas-le-bon');
    expect(wrong.json().errorsList).toEqual({ current_password: [MESSAGES.currentPasswordWrong] });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) statuses.push((await change(`Pas-le-bon-${attempt}`)).statusCode);
    expect(statuses).toEqual([422, 422, 422, 422]);
    const right = await change(DEMO_PASSWORD);
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/^Trop de tentatives de connexion\. Réessayez dans \d+ secondes?\.$/);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.target_id, user.id));
    expect(audit.filter((entry) => entry.action === 'reauthentication')).toHaveLength(6);
    expect(audit.find((entry) => entry.action === 'reauthentication')).toMatchObject({
      result: 'failure',
      details: { reason: 'wrong_password', route: 'api/user-update' },
    });
  });

  it('a notice that cannot be sent yet is kept for a later attempt, never an error for the user: the change is done', async () => {
    const lines: string[] = [];
    const app = await buildApp({
      config: { ...t.config, logLevel: 'error' },
      database: t.database,
      logStream: { write: (line: string) => lines.push(line) },
      mailer: {
        send: async () => {
          throw new Error('serveur SMTP injoignable');
        },
      },
    });
    await app.ready();
    try {
      const user = await t.createAccount('saisie');
      const login = await app.inject({
        method: 'POST',
        url: '/api/v1/api/login',
        payload: { email: user.email, password: DEMO_PASSWORD, device: 'web' },
      });
      const changed = await app.inject({
        method: 'POST',
        url: '/api/v1/api/change-password',
        headers: { authorization: `Bearer ${login.json().data.access_token}` },
        payload: { old_password: DEMO_PASSWORD, new_password: NEW_PASSWORD, confirm_password: NEW_PASSWORD },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().message).toBe('Mot de passe modifié avec succès : reconnectez-vous.');
      await app.settled();
      const { rows } = await t.database.pool.query(
        "select attempts, last_error, done_at from jobs where kind = 'mail' and payload->>'to' = $1 and payload->>'subject' like '%mot de passe%'",
        [user.email],
      );
      expect(rows).toEqual([{ attempts: 1, last_error: 'serveur SMTP injoignable', done_at: null }]);
      expect(lines.join('\n')).not.toContain(NEW_PASSWORD);
    } finally {
      await app.close();
    }
  });
});
