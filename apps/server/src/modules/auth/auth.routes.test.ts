import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginFailures, passwordResetTokens, permissions, rolePermissions, roles, users } from '../../db/schema/index.ts';
import { bearer, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/test-app.ts';
import { emailKey } from './throttles.ts';

const LOGIN = '/api/v1/api/login';
const ME = '/api/v1/api/user';
const REFRESH = '/api/v1/api/refresh';
const LOGOUT = '/api/v1/logout';
const FORGOT = '/api/v1/api/forgot-password';
const RECOVERY = '/api/v1/api/recovery-password';
const FIRST_PASSWORD = '/api/v1/api/change-first-password';
const USER_UPDATE = '/api/v1/api/user-update';
const DASH = '/api/v1/dash';

const UNAUTHENTICATED = 'Session expirée ou absente, veuillez vous reconnecter.';
const INVALID_CREDENTIALS = 'Email ou mot de passe incorrect.';
const TOO_MANY_ATTEMPTS = /^Trop de tentatives de connexion\. Réessayez dans \d+ (secondes?|minutes?)\.$/;
const INVALID_INPUT = 'Les données envoyées sont invalides.';
const INVALID_RESET = 'Ce lien de réinitialisation est invalide ou a expiré.';
const INVALID_REFRESH = 'Session invalide, veuillez vous reconnecter.';
const FORBIDDEN = "Vous n'avez pas les droits nécessaires pour effectuer cette action.";
const PASSWORD_CHANGED = 'Changement de mot passe réussi';

function recoveryTokenIn(eml: string): string {
  const match = /\/auth\/recovery-password\/([A-Za-z0-9_-]+)/.exec(eml);
  if (!match) throw new Error(`no recovery link in:\n${eml}`);
  return match[1];
}

describe('authentication and account API', () => {
  let t: TestApp;

  const createAccount = (role: string, fields: Partial<typeof users.$inferInsert> = {}) => t.createAccount(role, fields);

  const login = (email: string, password = DEMO_PASSWORD, remoteAddress?: string) =>
    t.app.inject({ method: 'POST', url: LOGIN, payload: { email, password, device: 'web' }, ...(remoteAddress ? { remoteAddress } : {}) });
  const me = (token?: string) => t.app.inject({ method: 'GET', url: ME, headers: token ? bearer(token) : {} });
  const refresh = (refresh_token: string) => t.app.inject({ method: 'POST', url: REFRESH, payload: { refresh_token } });

  beforeAll(async () => {
    // Many sign-ins in one minute from the same address: per-IP throttling is tested on its own app below.
    t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000' });
  });
  afterAll(() => t.close());

  describe('POST api/login', () => {
    it('signs in with the demo password and returns tokens, rights and the user without any password hash', async () => {
      const response = await login('admin@reformes.test');
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.message).toBe('Connexion réussie');
      expect(body.data.access_token).toEqual(expect.any(String));
      expect(body.data.refresh_token).toEqual(expect.any(String));
      expect(body.data.access_token).not.toBe(body.data.refresh_token);
      expect(body.data.expire_in).toBe(900);
      expect(body.data.features).toEqual(expect.arrayContaining(['dashboard.list', 'users.list', 'backups.add']));
      expect(body.data.user).toMatchObject({
        email: 'admin@reformes.test',
        lastname: 'Martin',
        firstname: 'Claire',
        is_active: true,
        must_change_password: false,
      });
      expect(body.data.user.roles[0].name).toBe('admin');
      expect(response.body).not.toMatch(/password_hash|passwordHash|\$argon2/);
    });

    it('lists only the rights of the role in features (saisie has no users.list)', async () => {
      const response = await login('saisie@reformes.test');
      expect(response.statusCode).toBe(200);
      const { features, user } = response.json().data;
      expect(user.roles[0].name).toBe('saisie');
      expect(features).toContain('dashboard.list');
      expect(features).toContain('reformes.add');
      expect(features).not.toContain('users.list');
    });

    it('accepts the email whatever its case', async () => {
      const response = await login('Validation@Reformes.TEST');
      expect(response.statusCode).toBe(200);
      expect(response.json().data.user.email).toBe('validation@reformes.test');
    });

    it('refuses missing email and password with a French message per field (422)', async () => {
      const response = await t.app.inject({ method: 'POST', url: LOGIN, payload: { device: 'web' } });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: INVALID_INPUT,
        errorsList: { email: ["L'email est requis"], password: ['Le mot de passe est requis'] },
      });
    });

    it('refuses an empty password and a malformed email (422)', async () => {
      const response = await t.app.inject({ method: 'POST', url: LOGIN, payload: { email: 'pas-un-email', password: '' } });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: INVALID_INPUT,
        errorsList: { email: ["L'email n'est pas valide"], password: ['Le mot de passe est requis'] },
      });
    });

    it('refuses a wrong password (401)', async () => {
      const response = await login('central@reformes.test', 'MauvaisMotDePasse1');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: INVALID_CREDENTIALS });
    });

    it('refuses an unknown email with the same answer as a wrong password (401)', async () => {
      const response = await login('personne@reformes.test');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: INVALID_CREDENTIALS });
    });

    it('refuses a blocked account (403) and its existing access token stops working at once (401)', async () => {
      const user = await createAccount('saisie');
      const session = await t.login(user.email);
      expect((await me(session.access_token)).statusCode).toBe(200);

      await t.db.update(users).set({ is_active: false }).where(eq(users.id, user.id));

      const response = await login(user.email);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: "Votre compte est bloqué. Contactez l'administrateur." });
      const afterBlock = await me(session.access_token);
      expect(afterBlock.statusCode).toBe(401);
      expect(afterBlock.json()).toMatchObject({ message: UNAUTHENTICATED });
    });

    it('makes an account wait after 5 wrong passwords (429), even with the right password', async () => {
      const user = await createAccount('validation');
      for (let attempt = 1; attempt <= 5; attempt++) {
        const response = await login(user.email, `Faux-${attempt}-motdepasse`);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ message: INVALID_CREDENTIALS });
      }
      const rightPassword = await login(user.email);
      expect(rightPassword.statusCode).toBe(429);
      expect(rightPassword.json().message).toMatch(TOO_MANY_ATTEMPTS);
      expect(rightPassword.headers['retry-after']).toMatch(/^[12]$/);
      // Other accounts are not affected.
      expect((await login('validation@reformes.test')).statusCode).toBe(200);
    });

    it('lets the account sign in again once the lock has passed', async () => {
      const user = await createAccount('validation');
      for (let attempt = 1; attempt <= 5; attempt++) await login(user.email, 'Faux-motdepasse');
      expect((await login(user.email)).statusCode).toBe(429);
      await t.db
        .update(loginFailures)
        .set({ retry_at: new Date(Date.now() - 1000) })
        .where(eq(loginFailures.email_hash, emailKey(user.email)));
      expect((await login(user.email)).statusCode).toBe(200);
    });

    it('throttles sign-ins and reset requests per address: the 4th in a minute with LOGIN_MAX_PER_IP_PER_MINUTE=3 gets 429', async () => {
      const throttled = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '3' });
      try {
        const attempt = (remoteAddress: string) =>
          throttled.app.inject({
            method: 'POST',
            url: LOGIN,
            remoteAddress,
            payload: { email: 'saisie@reformes.test', password: DEMO_PASSWORD, device: 'web' },
          });
        for (let i = 0; i < 3; i++) expect((await attempt('10.0.0.7')).statusCode).toBe(200);
        const fourth = await attempt('10.0.0.7');
        expect(fourth.statusCode).toBe(429);
        expect(fourth.json().message).toMatch(TOO_MANY_ATTEMPTS);
        expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
        // Another address still gets through.
        expect((await attempt('10.0.0.8')).statusCode).toBe(200);

        const forgot = () =>
          throttled.app.inject({ method: 'POST', url: FORGOT, remoteAddress: '10.0.0.9', payload: { email: 'saisie@reformes.test' } });
        for (let i = 0; i < 3; i++) expect((await forgot()).statusCode).toBe(200);
        const fourthForgot = await forgot();
        expect(fourthForgot.statusCode).toBe(429);
        expect(fourthForgot.json()).toMatchObject({ message: 'Trop de requêtes. Réessayez dans quelques instants.' });
        // The refusals of a minute write one audit row (issue 40, item 7).
        for (let i = 0; i < 5; i++) expect((await forgot()).statusCode).toBe(429);
        const refusals = await throttled.database.pool.query(
          "select details from audit_log where action = 'password.reset_request' and result = 'failure' and ip = '10.0.0.9'",
        );
        expect(refusals.rows).toEqual([{ details: { reason: 'throttled' } }]);
      } finally {
        await throttled.close();
      }
    });
  });

  describe('GET api/user', () => {
    it('returns the signed-in user with its roles and no password hash', async () => {
      const { access_token } = await t.login('publication@reformes.test');
      const response = await me(access_token);
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data).toMatchObject({ email: 'publication@reformes.test', lastname: 'Laurent', firstname: 'Sophie', is_signer: true });
      expect(data.roles).toEqual([{ id: expect.any(Number), name: 'publication' }]);
      expect(data.structure).toMatchObject({ sigl: 'MEN' });
      expect(response.body).not.toMatch(/password_hash|\$argon2/);
    });

    it('refuses a call without a token (401)', async () => {
      const response = await me();
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: UNAUTHENTICATED });
    });

    it('refuses a forged or malformed token (401)', async () => {
      const response = await me('pas.un.jeton');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: UNAUTHENTICATED });
      const basic = await t.app.inject({ method: 'GET', url: ME, headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } });
      expect(basic.statusCode).toBe(401);
      expect(basic.json()).toMatchObject({ message: UNAUTHENTICATED });
    });
  });

  describe('POST api/refresh', () => {
    it('rotates the refresh token: the new pair works', async () => {
      const first = await t.login('central@reformes.test');
      const response = await refresh(first.refresh_token);
      expect(response.statusCode).toBe(200);
      const next = response.json().data;
      expect(next).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), expire_in: 900 });
      expect(next.refresh_token).not.toBe(first.refresh_token);
      expect((await me(next.access_token)).statusCode).toBe(200);
      expect((await refresh(next.refresh_token)).statusCode).toBe(200);
    });

    it('refuses a rotated refresh token and revokes its family (401)', async () => {
      const first = await t.login('central@reformes.test');
      const second = (await refresh(first.refresh_token)).json().data;
      const third = (await refresh(second.refresh_token)).json().data;
      expect((await me(third.access_token)).statusCode).toBe(200);

      const reuse = await refresh(first.refresh_token);
      expect(reuse.statusCode).toBe(401);
      expect(reuse.json()).toMatchObject({ message: INVALID_REFRESH });

      // The newest pair of the family died with it.
      const newestRefresh = await refresh(third.refresh_token);
      expect(newestRefresh.statusCode).toBe(401);
      expect(newestRefresh.json()).toMatchObject({ message: INVALID_REFRESH });
      const newestAccess = await me(third.access_token);
      expect(newestAccess.statusCode).toBe(401);
      expect(newestAccess.json()).toMatchObject({ message: UNAUTHENTICATED });
    });

    it('leaves the other sessions of the same user alive when one family is revoked', async () => {
      const stolen = await t.login('central@reformes.test');
      const other = await t.login('central@reformes.test');
      await refresh(stolen.refresh_token);
      expect((await refresh(stolen.refresh_token)).statusCode).toBe(401);
      expect((await me(other.access_token)).statusCode).toBe(200);
    });

    it('refuses an unknown refresh token (401) and a missing one (422)', async () => {
      const unknown = await refresh('inconnu-inconnu-inconnu');
      expect(unknown.statusCode).toBe(401);
      expect(unknown.json()).toMatchObject({ message: INVALID_REFRESH });
      const missing = await t.app.inject({ method: 'POST', url: REFRESH, payload: {} });
      expect(missing.statusCode).toBe(422);
      expect(missing.json()).toMatchObject({ message: INVALID_INPUT, errorsList: { refresh_token: ['Ce champ est requis'] } });
    });
  });

  describe('GET logout', () => {
    it('revokes the session: the access token and the refresh token then get 401', async () => {
      const session = await t.login('validation@reformes.test');
      const response = await t.app.inject({ method: 'GET', url: LOGOUT, headers: bearer(session.access_token) });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: 'Déconnexion réussie' });

      const afterAccess = await me(session.access_token);
      expect(afterAccess.statusCode).toBe(401);
      expect(afterAccess.json()).toMatchObject({ message: UNAUTHENTICATED });
      const afterRefresh = await refresh(session.refresh_token);
      expect(afterRefresh.statusCode).toBe(401);
      expect(afterRefresh.json()).toMatchObject({ message: INVALID_REFRESH });
    });

    it('refuses a logout without a token (401)', async () => {
      const response = await t.app.inject({ method: 'GET', url: LOGOUT });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: UNAUTHENTICATED });
    });
  });

  describe('forgot password and recovery', () => {
    const FORGOT_ANSWER = 'Si un compte existe pour cet email, un lien de réinitialisation vient de lui être envoyé.';
    const forgot = (email: string) => t.app.inject({ method: 'POST', url: FORGOT, payload: { email } });
    const recover = (payload: Record<string, string>) => t.app.inject({ method: 'POST', url: RECOVERY, payload });

    /** Asks for a link and returns the token read from the mail that arrived. */
    async function requestRecoveryToken(email: string): Promise<string> {
      const before = t.outbox().length;
      expect((await forgot(email)).statusCode).toBe(200);
      const mails = t.outbox();
      expect(mails).toHaveLength(before + 1);
      const mail = mails[mails.length - 1];
      expect(mail).toContain(`To: ${email}`);
      return recoveryTokenIn(mail);
    }

    it('answers the same for an existing and an unknown email, and mails a link only to the existing one', async () => {
      const user = await createAccount('saisie');
      const before = t.outbox().length;

      const unknown = await forgot('inconnu@reformes.test');
      expect(unknown.statusCode).toBe(200);
      expect(t.outbox()).toHaveLength(before);

      const known = await forgot(user.email);
      expect(known.statusCode).toBe(200);
      expect(known.json()).toEqual(unknown.json());
      expect(known.json()).toMatchObject({ message: FORGOT_ANSWER });

      const mails = t.outbox();
      expect(mails).toHaveLength(before + 1);
      const text = mails[mails.length - 1];
      expect(text).toMatch(/http:\/\/localhost:3000\/auth\/recovery-password\/[A-Za-z0-9_-]{20,}/);
      expect(text).toContain(`Bonjour ${user.firstname} ${user.lastname}`);
    });

    it('refuses a missing email (422)', async () => {
      const response = await t.app.inject({ method: 'POST', url: FORGOT, payload: {} });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ message: INVALID_INPUT, errorsList: { email: ["L'email est requis"] } });
    });

    it('sets a new password with the mailed link once: old password fails, new one works, old sessions end', async () => {
      const user = await createAccount('saisie');
      const oldSession = await t.login(user.email);
      const token = await requestRecoveryToken(user.email);

      const response = await recover({ token, password: 'NouveauMotDePasse1', password_confirmation: 'NouveauMotDePasse1' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: PASSWORD_CHANGED });

      const oldPassword = await login(user.email);
      expect(oldPassword.statusCode).toBe(401);
      expect(oldPassword.json()).toMatchObject({ message: INVALID_CREDENTIALS });
      expect((await login(user.email, 'NouveauMotDePasse1')).statusCode).toBe(200);
      expect((await me(oldSession.access_token)).statusCode).toBe(401);
      expect((await refresh(oldSession.refresh_token)).statusCode).toBe(401);

      const secondUse = await recover({ token, password: 'EncoreUnAutre22', password_confirmation: 'EncoreUnAutre22' });
      expect(secondUse.statusCode).toBe(400);
      expect(secondUse.json()).toMatchObject({ message: INVALID_RESET });
      expect((await login(user.email, 'NouveauMotDePasse1')).statusCode).toBe(200);
    });

    it('refuses a confirmation that differs from the password (422)', async () => {
      const response = await recover({ token: 'quelconque', password: 'NouveauMotDePasse1', password_confirmation: 'AutreMotDePasse1' });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: INVALID_INPUT,
        errorsList: { password_confirmation: ['Nouveaux mots de passe non identique'] },
      });
    });

    it('refuses a password shorter than 8 characters (422)', async () => {
      const response = await recover({ token: 'quelconque', password: 'court', password_confirmation: 'court' });
      expect(response.statusCode).toBe(422);
      const body = response.json();
      expect(body.message).toBe(INVALID_INPUT);
      expect(body.errorsList.password).toEqual(['Le mot de passe doit contenir au moins 8 caractères']);
    });

    it('refuses an expired link (400) and keeps the old password', async () => {
      const user = await createAccount('saisie');
      const token = await requestRecoveryToken(user.email);
      await t.db
        .update(passwordResetTokens)
        .set({ expires_at: new Date(Date.now() - 60_000) })
        .where(eq(passwordResetTokens.user_id, user.id));

      const response = await recover({ token, password: 'NouveauMotDePasse1', password_confirmation: 'NouveauMotDePasse1' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: INVALID_RESET });
      expect((await login(user.email)).statusCode).toBe(200);
    });

    it('refuses an unknown token (400)', async () => {
      const response = await recover({
        token: 'jeton-inconnu',
        password: 'NouveauMotDePasse1',
        password_confirmation: 'NouveauMotDePasse1',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: INVALID_RESET });
    });

    it('sends no link to a blocked account', async () => {
      const user = await createAccount('saisie', { is_active: false });
      const before = t.outbox().length;
      const response = await forgot(user.email);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ message: FORGOT_ANSWER });
      expect(t.outbox()).toHaveLength(before);
    });
  });

  describe('temporary password (first sign-in)', () => {
    it('lets the user in only to change the password, then ends the session', async () => {
      const user = await createAccount('saisie', { must_change_password: true });
      const signIn = await login(user.email);
      expect(signIn.statusCode).toBe(200);
      const session = signIn.json().data;
      expect(session.user.must_change_password).toBe(true);

      const dash = await t.app.inject({ method: 'GET', url: DASH, headers: bearer(session.access_token) });
      expect(dash.statusCode).toBe(403);
      expect(dash.json()).toMatchObject({ message: 'Vous devez changer votre mot de passe temporaire avant de continuer.' });
      const update = await t.app.inject({
        method: 'POST',
        url: USER_UPDATE,
        headers: bearer(session.access_token),
        payload: { email: user.email },
      });
      expect(update.statusCode).toBe(403);
      expect((await me(session.access_token)).statusCode).toBe(200);

      const change = await t.app.inject({
        method: 'POST',
        url: FIRST_PASSWORD,
        headers: bearer(session.access_token),
        payload: { password: 'MonVraiMotDePasse9', confirm_password: 'MonVraiMotDePasse9' },
      });
      expect(change.statusCode).toBe(200);
      expect(change.json()).toMatchObject({ message: PASSWORD_CHANGED });

      const afterChange = await me(session.access_token);
      expect(afterChange.statusCode).toBe(401);
      expect(afterChange.json()).toMatchObject({ message: UNAUTHENTICATED });
      expect((await login(user.email)).statusCode).toBe(401);
      const again = await login(user.email, 'MonVraiMotDePasse9');
      expect(again.statusCode).toBe(200);
      expect(again.json().data.user.must_change_password).toBe(false);
      const dashAfter = await t.app.inject({ method: 'GET', url: DASH, headers: bearer(again.json().data.access_token) });
      expect(dashAfter.statusCode).toBe(200);
    });

    it('refuses a first password that differs from its confirmation or is too short (422)', async () => {
      const user = await createAccount('saisie', { must_change_password: true });
      const { access_token } = await t.login(user.email);
      const differ = await t.app.inject({
        method: 'POST',
        url: FIRST_PASSWORD,
        headers: bearer(access_token),
        payload: { password: 'MonVraiMotDePasse9', confirm_password: 'MonAutreMotDePasse9' },
      });
      expect(differ.statusCode).toBe(422);
      expect(differ.json()).toMatchObject({
        message: INVALID_INPUT,
        errorsList: { confirm_password: ['Nouveaux mots de passe non identique'] },
      });

      const short = await t.app.inject({
        method: 'POST',
        url: FIRST_PASSWORD,
        headers: bearer(access_token),
        payload: { password: 'abc', confirm_password: 'abc' },
      });
      expect(short.statusCode).toBe(422);
      expect(short.json().errorsList).toMatchObject({
        password: ['Le mot de passe doit contenir au moins 8 caractères'],
        confirm_password: ['Le mot de passe doit contenir au moins 8 caractères'],
      });

      const missing = await t.app.inject({ method: 'POST', url: FIRST_PASSWORD, headers: bearer(access_token), payload: {} });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().errorsList).toEqual({
        password: ['Le mot de passe est requis'],
        confirm_password: ['Le mot de passe est requis'],
      });
    });

    it('refuses the first-password change to an account without a temporary password (403), which keeps its password', async () => {
      const user = await createAccount('saisie');
      const { access_token } = await t.login(user.email);
      const response = await t.app.inject({
        method: 'POST',
        url: FIRST_PASSWORD,
        headers: bearer(access_token),
        payload: { password: 'VoleurDeSession1', confirm_password: 'VoleurDeSession1' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ message: FORBIDDEN });
      expect((await login(user.email, 'VoleurDeSession1')).statusCode).toBe(401);
      expect((await login(user.email)).statusCode).toBe(200);
      expect((await me(access_token)).statusCode).toBe(200);
    });

    it('refuses a first-password change without a session (401)', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: FIRST_PASSWORD,
        payload: { password: 'MonVraiMotDePasse9', confirm_password: 'MonVraiMotDePasse9' },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: UNAUTHENTICATED });
    });
  });

  describe('POST api/user-update', () => {
    const update = (token: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'POST', url: USER_UPDATE, headers: bearer(token), payload });

    it('changes the own lastname, firstname, email and phone', async () => {
      const user = await createAccount('validation');
      const { access_token } = await t.login(user.email);
      const response = await update(access_token, {
        lastname: 'Nouveau-Nom',
        firstname: 'Marie Anne',
        email: 'marie.anne@reformes.test',
        phone: '0707070707',
        // A new email needs the current password (account-security.routes.test.ts).
        current_password: DEMO_PASSWORD,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().message).toBe('Profile mis à jour avec succès');
      expect(response.json().data).toMatchObject({
        id: user.id,
        lastname: 'Nouveau-Nom',
        firstname: 'Marie Anne',
        email: 'marie.anne@reformes.test',
        phone: '0707070707',
        name: 'Marie Anne Nouveau-Nom',
      });
      expect(response.body).not.toMatch(/password_hash|\$argon2/);

      const current = (await me(access_token)).json().data;
      expect(current).toMatchObject({ lastname: 'Nouveau-Nom', email: 'marie.anne@reformes.test' });
      expect((await login('marie.anne@reformes.test')).statusCode).toBe(200);
    });

    it('changes the email alone (account page) and keeps the other fields', async () => {
      const user = await createAccount('validation');
      const { access_token } = await t.login(user.email);
      const response = await update(access_token, { email: `seul.${user.email}`, current_password: DEMO_PASSWORD });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ email: `seul.${user.email}`, lastname: user.lastname, phone: user.phone });
    });

    it('ignores fields the profile does not own (activity, structure, temporary password)', async () => {
      const user = await createAccount('validation');
      const { access_token } = await t.login(user.email);
      const response = await update(access_token, {
        email: user.email,
        is_active: false,
        must_change_password: true,
        structure_id: 999_999,
        password_hash: 'x',
      });
      expect(response.statusCode).toBe(200);
      const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({ is_active: true, must_change_password: false, structure_id: user.structure_id });
      expect(row.password_hash).toBe(user.password_hash);
    });

    it('refuses a phone with letters (422)', async () => {
      const user = await createAccount('validation');
      const { access_token } = await t.login(user.email);
      const response = await update(access_token, { lastname: 'Nom', firstname: 'Prénom', email: user.email, phone: '06AB0000' });
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        message: INVALID_INPUT,
        errorsList: { phone: ['Le téléphone ne doit contenir que des chiffres'] },
      });
    });

    it("refuses another account's email, whatever its case (409)", async () => {
      const user = await createAccount('validation');
      const { access_token } = await t.login(user.email);
      for (const email of ['admin@reformes.test', 'ADMIN@Reformes.test']) {
        const response = await update(access_token, { email, current_password: DEMO_PASSWORD });
        expect(response.statusCode).toBe(409);
        expect(response.json()).toMatchObject({ message: 'Cet email est déjà utilisé par un autre compte.' });
      }
      expect((await me(access_token)).json().data.email).toBe(user.email);
    });

    it('refuses an update without a session (401)', async () => {
      const response = await t.app.inject({ method: 'POST', url: USER_UPDATE, payload: { email: 'x@reformes.test' } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ message: UNAUTHENTICATED });
    });
  });

  describe('rights checked on every request', () => {
    async function setSaisieDashboardRight(isActive: boolean) {
      const [row] = await t.db
        .select({ id: rolePermissions.id })
        .from(rolePermissions)
        .innerJoin(roles, eq(roles.id, rolePermissions.role_id))
        .innerJoin(permissions, eq(permissions.id, rolePermissions.permission_id))
        .where(and(eq(roles.name, 'saisie'), eq(permissions.name, 'dashboard.list')));
      await t.db.update(rolePermissions).set({ is_active: isActive }).where(eq(rolePermissions.id, row.id));
    }

    it('refuses the dashboard once the saisie role loses dashboard.list (403), and allows it again without a restart', async () => {
      const { access_token } = await t.login('saisie@reformes.test');
      expect((await t.app.inject({ method: 'GET', url: DASH, headers: bearer(access_token) })).statusCode).toBe(200);
      try {
        await setSaisieDashboardRight(false);
        const refused = await t.app.inject({ method: 'GET', url: DASH, headers: bearer(access_token) });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ message: FORBIDDEN });
        // Another role keeps its own right.
        const validation = await t.login('validation@reformes.test');
        expect((await t.app.inject({ method: 'GET', url: DASH, headers: bearer(validation.access_token) })).statusCode).toBe(200);
      } finally {
        await setSaisieDashboardRight(true);
      }
      const allowed = await t.app.inject({ method: 'GET', url: DASH, headers: bearer(access_token) });
      expect(allowed.statusCode).toBe(200);
    });

    it('refuses every route of a user whose role was deactivated (403)', async () => {
      const user = await createAccount('publication');
      const { access_token } = await t.login(user.email);
      const [publication] = await t.db.select().from(roles).where(eq(roles.name, 'publication'));
      try {
        await t.db.update(roles).set({ is_active: false }).where(eq(roles.id, publication.id));
        const refused = await t.app.inject({ method: 'GET', url: DASH, headers: bearer(access_token) });
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ message: FORBIDDEN });
      } finally {
        await t.db.update(roles).set({ is_active: true }).where(eq(roles.id, publication.id));
      }
    });

    it('never stores a refresh or reset token in clear', async () => {
      const session = await t.login('admin@reformes.test');
      const result = await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from refresh_tokens where token_hash = ${session.refresh_token}`,
      );
      expect(result.rows[0].n).toBe(0);
    });
  });
});
