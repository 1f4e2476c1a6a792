import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema/index.ts';
import { bearer, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/test-app.ts';
import { isCommonPassword } from './password-policy.ts';

const INVALID_INPUT = 'Les données envoyées sont invalides.';
const CURRENT_REQUIRED = "Le mot de passe actuel est requis pour changer d'email";
const CURRENT_WRONG = 'Le mot de passe actuel est incorrect';
const TOO_COMMON = 'Ce mot de passe est trop courant';
const OWN_INFO = 'Le mot de passe ne doit pas contenir votre nom ou votre email';
const USER_INFO = "Le mot de passe ne doit pas contenir le nom ou l'email de l'utilisateur";
const APP_NAME = "Le mot de passe ne doit pas contenir le nom de l'application";
const STRONG = 'Tournesol-Bleu-42';

/** Issue 14: a change of email needs the current password; every new password follows the policy. */
describe('account security', () => {
  let t: TestApp;
  let count = 0;

  /** A fresh account (Awa Diallo, awa.diallo{n}@reformes.test): the password rules read its name. */
  const createAccount = (fields: Partial<typeof users.$inferInsert> = {}) => {
    count += 1;
    return t.createAccount('saisie', { lastname: 'Diallo', firstname: 'Awa', email: `awa.diallo${count}@reformes.test`, ...fields });
  };

  const post = (url: string, payload: object, token?: string) =>
    t.app.inject({ method: 'POST', url: `/api/v1/${url}`, headers: token ? bearer(token) : {}, payload });
  const signIn = (email: string, password = DEMO_PASSWORD) =>
    t.app.inject({ method: 'POST', url: '/api/v1/api/login', payload: { email, password, device: 'web' } });
  const newMails = (before: number) => t.outbox().slice(before);
  const recipientOf = (mail: string) => /^To: (.*)$/m.exec(mail)?.[1]?.trim();

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000' });
  });
  afterAll(() => t.close());

  describe('email change (POST api/user-update)', () => {
    it('changes the name and the phone without the current password, and sends no mail', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const before = t.outbox().length;
      const response = await post(
        'api/user-update',
        { lastname: 'Diallo-Ba', firstname: 'Awa', email: user.email, phone: '0622222222' },
        access_token,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ lastname: 'Diallo-Ba', phone: '0622222222', email: user.email });
      expect(newMails(before)).toEqual([]);
    });

    it('takes a change of case as no change of email: no password needed', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const response = await post('api/user-update', { email: user.email.toUpperCase() }, access_token);
      expect(response.statusCode, response.body).toBe(200);
    });

    it('refuses a new email without the current password (422), keeps the old one, and the reset link still goes to the old address', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const stolen = `pirate${count}@exemple.test`;
      for (const payload of [{ email: stolen }, { email: stolen, current_password: '' }]) {
        const response = await post('api/user-update', payload, access_token);
        expect(response.statusCode).toBe(422);
        expect(response.json()).toMatchObject({ message: INVALID_INPUT, errorsList: { current_password: [CURRENT_REQUIRED] } });
      }
      const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
      expect(row.email).toBe(user.email);

      const before = t.outbox().length;
      expect((await post('api/forgot-password', { email: stolen })).statusCode).toBe(200);
      expect(newMails(before)).toEqual([]);
      expect((await post('api/forgot-password', { email: user.email })).statusCode).toBe(200);
      expect(newMails(before).map(recipientOf)).toEqual([user.email]);
    });

    it('refuses a wrong current password (422) and changes nothing', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const before = t.outbox().length;
      const response = await post(
        'api/user-update',
        { email: `autre${count}@reformes.test`, current_password: 'Pas-le-bon-2026' },
        access_token,
      );
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({ message: INVALID_INPUT, errorsList: { current_password: [CURRENT_WRONG] } });
      const [row] = await t.db.select({ email: users.email }).from(users).where(eq(users.id, user.id));
      expect(row.email).toBe(user.email);
      expect(newMails(before)).toEqual([]);
    });

    it('changes the email with the current password, tells the old address, and sends reset links to the new one only', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const next = `awa.nouvelle${count}@reformes.test`;
      const before = t.outbox().length;
      const response = await post('api/user-update', { email: next, current_password: DEMO_PASSWORD }, access_token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ message: 'Profile mis à jour avec succès', data: { email: next } });

      const [notice] = newMails(before);
      expect(newMails(before)).toHaveLength(1);
      expect(recipientOf(notice)).toBe(user.email);
      expect(notice).toContain("L'adresse email de votre compte Réformes a été changée");
      expect(notice).toContain('Bonjour Awa Diallo');
      expect(notice).toMatch(/a été changée le \p{L}+ \d{1,2} \p{L}+ \d{4} à \d{2}:\d{2} \(UTC\)/u);
      expect(notice).toContain("Si vous n'êtes pas à l'origine de ce changement, contactez sans attendre un administrateur");
      expect(notice).not.toContain(next);

      const afterNotice = t.outbox().length;
      await post('api/forgot-password', { email: user.email });
      expect(newMails(afterNotice)).toEqual([]);
      await post('api/forgot-password', { email: next });
      expect(newMails(afterNotice).map(recipientOf)).toEqual([next]);
      expect((await signIn(next)).statusCode).toBe(200);
      expect((await signIn(user.email)).statusCode).toBe(401);
    });

    it('accepts the whole profile of "Mon profil" with a new email and the current password', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const next = `awa.profil${count}@reformes.test`;
      const response = await post(
        'api/user-update',
        { lastname: 'Diallo', firstname: 'Awa Marie', email: next, phone: '0633333333', current_password: DEMO_PASSWORD },
        access_token,
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ firstname: 'Awa Marie', email: next });
      expect(response.body).not.toContain(DEMO_PASSWORD);
    });

    it('ends the reset links mailed to the old address before the change', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const before = t.outbox().length;
      await post('api/forgot-password', { email: user.email });
      const token = /\/auth\/recovery-password\/([A-Za-z0-9_-]+)/.exec(newMails(before)[0] ?? '')?.[1];
      expect(token).toBeDefined();
      const changed = await post(
        'api/user-update',
        { email: `awa.lien${count}@reformes.test`, current_password: DEMO_PASSWORD },
        access_token,
      );
      expect(changed.statusCode, changed.body).toBe(200);
      const recovery = await post('api/recovery-password', { token, password: STRONG, password_confirmation: STRONG });
      expect(recovery.statusCode).toBe(400);
    });

    it('checks the password before telling whether the new email is taken', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const withoutPassword = await post('api/user-update', { email: 'admin@reformes.test' }, access_token);
      expect(withoutPassword.statusCode).toBe(422);
      const withPassword = await post('api/user-update', { email: 'admin@reformes.test', current_password: DEMO_PASSWORD }, access_token);
      expect(withPassword.statusCode).toBe(409);
    });
  });

  describe('password policy', () => {
    it('ships a list of at least 10 000 common passwords, matched whatever the case', () => {
      for (const password of ['password', 'Password', 'PASSWORD', '12345678', 'azerty123', 'iloveyou', 'football', 'qwertyuiop']) {
        expect(isCommonPassword(password), password).toBe(true);
      }
      expect(isCommonPassword(STRONG)).toBe(false);
    });

    it('refuses a common password, the app name or the own name as first password, and keeps the temporary state', async () => {
      const user = await createAccount({ must_change_password: true });
      const { access_token } = await t.login(user.email);
      const first = (password: string) => post('api/change-first-password', { password, confirm_password: password }, access_token);

      const common = await first('password');
      expect(common.statusCode).toBe(422);
      expect(common.json()).toMatchObject({ message: INVALID_INPUT, errorsList: { password: [TOO_COMMON] } });

      const appName = await first('Réformes2026!');
      expect(appName.statusCode).toBe(422);
      expect(appName.json().errorsList).toEqual({ password: [APP_NAME], confirm_password: [APP_NAME] });

      for (const personal of ['AwaDiallo2026', 'diallo-tournesol', `Awa.Diallo${count}!`]) {
        const response = await first(personal);
        expect(response.statusCode, personal).toBe(422);
        expect(response.json().errorsList).toEqual({ password: [OWN_INFO] });
      }

      // The spec's own messages are untouched.
      expect((await first('court')).json().errorsList.password).toEqual(['Le mot de passe doit contenir au moins 8 caractères']);

      expect((await t.login(user.email)).user).toMatchObject({ must_change_password: true });
      expect((await first(STRONG)).statusCode).toBe(200);
    });

    it('refuses a weak password through the reset link, and the link still works for a strong one', async () => {
      const user = await createAccount();
      const before = t.outbox().length;
      await post('api/forgot-password', { email: user.email });
      const token = /\/auth\/recovery-password\/([A-Za-z0-9_-]+)/.exec(newMails(before)[0] ?? '')?.[1];
      const recover = (password: string) => post('api/recovery-password', { token, password, password_confirmation: password });

      const common = await recover('iloveyou');
      expect(common.statusCode).toBe(422);
      expect(common.json().errorsList).toEqual({ password: [TOO_COMMON] });
      const personal = await recover('Diallo2026!!');
      expect(personal.json().errorsList).toEqual({ password: [OWN_INFO] });
      expect((await signIn(user.email)).statusCode).toBe(200);

      expect((await recover(STRONG)).statusCode).toBe(200);
      expect((await signIn(user.email, STRONG)).statusCode).toBe(200);
    });

    it('refuses a weak new password on the account page and keeps the session and the old password', async () => {
      const user = await createAccount();
      const { access_token } = await t.login(user.email);
      const change = (password: string) =>
        post('api/change-password', { old_password: DEMO_PASSWORD, new_password: password, confirm_password: password }, access_token);

      const common = await change('password');
      expect(common.statusCode).toBe(422);
      expect(common.json()).toMatchObject({ message: INVALID_INPUT, errorsList: { new_password: [TOO_COMMON] } });
      expect((await change('awa.diallo-2026')).json().errorsList).toEqual({ new_password: [OWN_INFO] });
      expect((await change('REFORMES-2027')).json().errorsList).toEqual({ new_password: [APP_NAME], confirm_password: [APP_NAME] });
      // A wrong old password is still told first.
      const wrongOld = await post(
        'api/change-password',
        { old_password: 'Pas-le-bon-2026', new_password: 'password', confirm_password: 'password' },
        access_token,
      );
      expect(wrongOld.json().errorsList).toEqual({ old_password: ["L'ancien mot de passe est incorrect."] });

      const me = await t.app.inject({ method: 'GET', url: '/api/v1/api/user', headers: bearer(access_token) });
      expect(me.statusCode).toBe(200);
      expect((await signIn(user.email)).statusCode).toBe(200);
      expect((await change(STRONG)).statusCode).toBe(200);
    });

    it("refuses a weak password in the administrator's reset form, naming the user", async () => {
      const user = await createAccount();
      const admin = (await t.login('admin@reformes.test')).access_token;
      const reset = (password: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/reset-password',
          headers: { ...bearer(admin), 'x-action': 'edit' },
          payload: { id: user.id, email: user.email, password, password_confirmation: password },
        });

      expect((await reset('football')).json()).toMatchObject({ message: INVALID_INPUT, errorsList: { password: [TOO_COMMON] } });
      expect((await reset('Awa-Provisoire-1')).json().errorsList).toEqual({ password: [USER_INFO] });
      expect((await reset('Reformes2026!')).json().errorsList).toMatchObject({ password: [APP_NAME] });
      expect((await signIn(user.email)).statusCode).toBe(200);

      const accepted = await reset('Provisoire-Tournesol-9');
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await signIn(user.email, 'Provisoire-Tournesol-9')).json().data.user).toMatchObject({ must_change_password: true });
    });
  });
});
