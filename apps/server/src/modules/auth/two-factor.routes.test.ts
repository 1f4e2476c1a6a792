import { MESSAGES, RECOVERY_CODE_COUNT, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { auditLog, roles, twoFactorRecoveryCodes, users } from '../../db/schema/index.ts';
import { bearer, type Caller, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/test-app.ts';

/** What the user's authenticator app shows, `steps` 30-second steps from now (the server accepts ±1). */
function codeOf(otpauthUrl: string, steps = 0): string {
  const secret = new URL(otpauthUrl).searchParams.get('secret') ?? '';
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

describe('two-factor sign-in (issue 18)', { timeout: 120_000 }, () => {
  let t: TestApp;
  let admin: Caller;

  /** A fresh account of `role`, signed in, with its second factor enrolled: its otpauth URL and recovery codes. */
  async function enrolled(role = 'publication') {
    const user = await t.createAccount(role);
    const caller = await t.as(user.email);
    const setup = (await caller.post('api/2fa/setup')).json().data;
    const enable = await caller.post('api/2fa/enable', { password: DEMO_PASSWORD, code: codeOf(setup.otpauth_url) });
    expect(enable.statusCode, enable.body).toBe(200);
    return { user, caller, url: setup.otpauth_url as string, recovery: enable.json().data.recovery_codes as string[] };
  }

  const wrongPasswordOrCode = {
    message: TWO_FACTOR_MESSAGES.wrongPasswordOrCode,
    errorsList: { password: [TWO_FACTOR_MESSAGES.wrongPasswordOrCode], code: [TWO_FACTOR_MESSAGES.wrongPasswordOrCode] },
  };
  const login = (email: string, password = DEMO_PASSWORD) => t.anonymous.post('api/login', { email, password, device: 'web' });
  const secondStep = (challenge: string, code: string) => t.anonymous.post('api/login/2fa', { challenge_token: challenge, code });

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES: '4', LOGIN_MAX_PER_IP_PER_MINUTE: '1000' });
    admin = await t.as('admin');
  });
  afterAll(() => t.close());

  it('enrols by QR code or key, confirmed by a code, and gives 10 recovery codes once, stored hashed', async () => {
    const user = await t.createAccount('publication');
    const caller = await t.as(user.email);
    expect((await caller.get('api/2fa')).json().data).toEqual({ enabled: false, required: false, recovery_codes_left: 0 });

    const setup = await caller.post('api/2fa/setup');
    expect(setup.statusCode).toBe(200);
    const { otpauth_url, qr_code, secret } = setup.json().data;
    expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/R%C3%A9formes:.+\?.*secret=[A-Z2-7]+/);
    expect(otpauth_url).toContain('period=30');
    expect(qr_code).toMatch(/^data:image\/png;base64,/);
    expect(secret.replaceAll(' ', '')).toBe(new URL(otpauth_url).searchParams.get('secret'));

    const wrong = await caller.post('api/2fa/enable', { password: DEMO_PASSWORD, code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject(wrongPasswordOrCode);
    const malformed = await caller.post('api/2fa/enable', { password: DEMO_PASSWORD, code: '12ab' });
    expect(malformed.json().errorsList.code).toEqual([TWO_FACTOR_MESSAGES.codeFormat]);

    const enable = await caller.post('api/2fa/enable', { password: DEMO_PASSWORD, code: codeOf(otpauth_url) });
    expect(enable.statusCode).toBe(200);
    expect(enable.json().message).toBe(TWO_FACTOR_MESSAGES.enabled);
    const codes = enable.json().data.recovery_codes as string[];
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await caller.get('api/2fa')).json().data).toEqual({ enabled: true, required: false, recovery_codes_left: 10 });
    expect((await caller.post('api/2fa/setup')).statusCode).toBe(409);

    // Neither the secret nor the codes are readable in the database.
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row.totp_secret).not.toContain(new URL(otpauth_url).searchParams.get('secret'));
    const stored = await t.db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.user_id, user.id));
    expect(stored.map((entry) => entry.code_hash)).not.toContain(codes[0]);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.target_id, user.id));
    expect(audit.map((entry) => entry.action)).toContain('two_factor.enable');
  });

  it('asks for the code after the password; a code is never accepted twice; recovery codes are single-use', async () => {
    const { user, url, recovery } = await enrolled();
    const first = await login(user.email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      message: TWO_FACTOR_MESSAGES.signInStep,
      data: { two_factor_required: true, challenge_token: expect.any(String) },
    });
    const challenge = first.json().data.challenge_token as string;

    const wrong = await secondStep(challenge, '000000');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe(TWO_FACTOR_MESSAGES.invalidCode);

    // The enrolment used this step's code: the next step's is the first one left.
    const code = codeOf(url, 1);
    const signedIn = await secondStep(challenge, code);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().data).toMatchObject({ token_type: 'Bearer', user: { email: user.email, two_factor: { enabled: true } } });
    // Only a complete sign-in marks the device (issue 40, item 8): the password step alone does not.
    expect(first.headers['set-cookie']).toBeUndefined();
    expect(String(signedIn.headers['set-cookie'])).toMatch(/^reformes_device=\d+\.[A-Za-z0-9_-]{43}; Path=\/api\/v1\/api\/login;/);
    const again = await secondStep((await login(user.email)).json().data.challenge_token, code);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(TWO_FACTOR_MESSAGES.invalidCode);

    const byRecovery = await secondStep((await login(user.email)).json().data.challenge_token, recovery[0].toUpperCase());
    expect(byRecovery.statusCode).toBe(200);
    const reused = await secondStep((await login(user.email)).json().data.challenge_token, recovery[0]);
    expect(reused.statusCode).toBe(401);
    const caller = t.caller(byRecovery.json().data);
    expect((await caller.get('api/2fa')).json().data.recovery_codes_left).toBe(9);

    const forged = await secondStep(`${challenge.split('.')[0]}.AAAA`, codeOf(url, 1));
    expect(forged.statusCode).toBe(401);
    expect(forged.json().message).toBe(TWO_FACTOR_MESSAGES.challengeExpired);
  });

  it('counts wrong codes with wrong passwords: past the limit the account waits (429)', async () => {
    const { user } = await enrolled();
    const challenge = (await login(user.email)).json().data.challenge_token as string;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) statuses.push((await secondStep(challenge, '123456')).statusCode);
    expect(statuses).toContain(429);
    const failures = await t.db.select().from(auditLog).where(eq(auditLog.actor_id, user.id));
    expect(failures.some((entry) => (entry.details as { reason?: string }).reason === 'wrong_code')).toBe(true);
  });

  it('turns off with the password and a code only, answering the same whichever was wrong', async () => {
    const { user, caller, url, recovery } = await enrolled();
    const badPassword = await caller.post('api/2fa/disable', { password: 'Pas-le-bon-2026!', code: recovery[0] });
    expect(badPassword.statusCode).toBe(422);
    expect(badPassword.json()).toMatchObject(wrongPasswordOrCode);
    const badCode = await caller.post('api/2fa/disable', { password: DEMO_PASSWORD, code: '000000' });
    expect(badCode.statusCode).toBe(422);
    expect(badCode.json()).toMatchObject(wrongPasswordOrCode);
    const off = await caller.post('api/2fa/disable', { password: DEMO_PASSWORD, code: codeOf(url, 1) });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().message).toBe(TWO_FACTOR_MESSAGES.disabled);
    expect((await login(user.email)).json().data).toHaveProperty('access_token');
  });

  it('a role that demands it leads its users to enrolment before anything else', async () => {
    const [role] = await t.db.select().from(roles).where(eq(roles.name, 'validation'));
    const required = await admin.put(`roles/${role.id}`, { name: 'validation', requires_two_factor: true });
    expect(required.statusCode, required.body).toBe(200);
    expect(required.json().data.requires_two_factor).toBe(true);
    try {
      const user = await t.createAccount('validation');
      const session = (await login(user.email)).json().data;
      expect(session.user.two_factor).toEqual({ enabled: false, required: true });
      const caller = t.caller(session);
      const refused = await caller.get('dash');
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe(TWO_FACTOR_MESSAGES.required);
      expect((await caller.get('api/user')).statusCode).toBe(200);

      const setup = (await caller.post('api/2fa/setup')).json().data;
      expect((await caller.post('api/2fa/enable', { password: DEMO_PASSWORD, code: codeOf(setup.otpauth_url) })).statusCode).toBe(200);
      expect((await caller.get('dash')).statusCode).toBe(200);
      const cannot = await caller.post('api/2fa/disable', { password: DEMO_PASSWORD, code: codeOf(setup.otpauth_url, 1) });
      expect(cannot.statusCode).toBe(403);
      expect(cannot.json().message).toBe(TWO_FACTOR_MESSAGES.requiredCannotDisable);
    } finally {
      await admin.put(`roles/${role.id}`, { name: 'validation', requires_two_factor: false });
    }
  });

  it('an admin resets a user’s second factor (audited, sessions ended); others may not', async () => {
    const { user, caller } = await enrolled();
    const saisie = await t.as('saisie');
    expect((await saisie.post(`users/${user.id}/two-factor-reset`)).statusCode).toBe(403);
    const reset = await admin.post(`users/${user.id}/two-factor-reset`);
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe(TWO_FACTOR_MESSAGES.reset);
    expect((await caller.get('api/user')).statusCode).toBe(401);
    expect((await login(user.email)).json().data).toHaveProperty('access_token');
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.target_id, user.id));
    expect(audit.find((entry) => entry.action === 'two_factor.reset')?.actor_id).toBe(admin.session.user.id);
  });

  it('enabling needs the current password: a stolen session cannot enrol its own authenticator', async () => {
    const user = await t.createAccount('publication');
    const caller = await t.as(user.email);
    const setup = (await caller.post('api/2fa/setup')).json().data;
    const withoutPassword = await caller.post('api/2fa/enable', { code: codeOf(setup.otpauth_url) });
    expect(withoutPassword.statusCode).toBe(422);
    expect(withoutPassword.json().errorsList.password).toEqual([MESSAGES.passwordRequired]);
    const wrongPassword = await caller.post('api/2fa/enable', { password: 'Pas-le-bon-2026!', code: codeOf(setup.otpauth_url) });
    expect(wrongPassword.statusCode).toBe(422);
    expect(wrongPassword.json()).toMatchObject(wrongPasswordOrCode);
    expect((await caller.get('api/2fa')).json().data.enabled).toBe(false);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.target_id, user.id));
    expect(audit.find((entry) => entry.action === 'reauthentication')).toMatchObject({
      result: 'failure',
      actor_id: user.id,
      details: { reason: 'wrong_password', route: 'api/2fa/enable' },
    });
  });

  it("turning the second factor on or off ends the account's other sessions, not the caller's", async () => {
    const user = await t.createAccount('publication');
    const caller = await t.as(user.email);
    const elsewhere = await t.as(user.email);
    const setup = (await caller.post('api/2fa/setup')).json().data;
    const enable = await caller.post('api/2fa/enable', { password: DEMO_PASSWORD, code: codeOf(setup.otpauth_url) });
    expect(enable.statusCode).toBe(200);
    expect((await caller.get('api/user')).statusCode).toBe(200);
    expect((await elsewhere.get('api/user')).statusCode).toBe(401);

    const challenge = (await login(user.email)).json().data.challenge_token as string;
    const again = t.caller((await secondStep(challenge, codeOf(setup.otpauth_url, 1))).json().data);
    expect((await again.get('api/user')).statusCode).toBe(200);
    const off = await caller.post('api/2fa/disable', { password: DEMO_PASSWORD, code: enable.json().data.recovery_codes[0] });
    expect(off.statusCode, off.body).toBe(200);
    expect((await caller.get('api/user')).statusCode).toBe(200);
    expect((await again.get('api/user')).statusCode).toBe(401);
  });

  it('gives a new set of recovery codes for the password and a code: the old ones are void', async () => {
    const { user, caller, recovery } = await enrolled();
    const wrong = await caller.post('api/2fa/recovery-codes', { password: 'Pas-le-bon-2026!', code: recovery[0] });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toMatchObject(wrongPasswordOrCode);
    const renewed = await caller.post('api/2fa/recovery-codes', { password: DEMO_PASSWORD, code: recovery[1] });
    expect(renewed.statusCode, renewed.body).toBe(200);
    expect(renewed.json().message).toBe(TWO_FACTOR_MESSAGES.recoveryCodesRenewed);
    const codes = renewed.json().data.recovery_codes as string[];
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(codes).not.toContain(recovery[2]);
    expect((await caller.get('api/2fa')).json().data.recovery_codes_left).toBe(RECOVERY_CODE_COUNT);
    expect((await secondStep((await login(user.email)).json().data.challenge_token, recovery[2])).statusCode).toBe(401);
    expect((await secondStep((await login(user.email)).json().data.challenge_token, codes[0])).statusCode).toBe(200);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.target_id, user.id));
    expect(audit.map((entry) => entry.action)).toContain('two_factor.recovery_codes_renewed');

    const plain = await t.as((await t.createAccount('publication')).email);
    const notEnabled = await plain.post('api/2fa/recovery-codes', { password: DEMO_PASSWORD, code: '123456' });
    expect(notEnabled.statusCode).toBe(409);
    expect(notEnabled.json().message).toBe(TWO_FACTOR_MESSAGES.notEnabled);
  });

  it('counts each password typed again in the sign-in back-off: past the limit, 429 even for the right one', async () => {
    const { user, caller, url } = await enrolled();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      statuses.push((await caller.post('api/2fa/disable', { password: `Pas-le-bon-${attempt}!`, code: codeOf(url, 1) })).statusCode);
    }
    expect(statuses.slice(0, 4)).toEqual([422, 422, 422, 422]);
    expect(statuses[4]).toBe(429);
    const right = await caller.post('api/2fa/disable', { password: DEMO_PASSWORD, code: codeOf(url, 1) });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toMatch(/^Trop de tentatives de connexion\. Réessayez dans \d+ secondes?\.$/);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    expect((await caller.get('api/2fa')).json().data.enabled).toBe(true);
    const audit = await t.db.select().from(auditLog).where(eq(auditLog.target_id, user.id)).orderBy(auditLog.id);
    const reasons = audit
      .filter((entry) => entry.action === 'reauthentication')
      .map((entry) => (entry.details as { reason: string }).reason);
    expect(reasons).toEqual(['wrong_password', 'wrong_password', 'wrong_password', 'wrong_password', 'throttled', 'throttled']);
  });

  it('mails the account when its second factor is turned on, off, renewed or reset by an administrator', async () => {
    const mailsTo = (email: string) => t.outbox().filter((mail) => /^To: (.*)$/m.exec(mail)?.[1]?.trim() === email);
    const { user, caller, url, recovery } = await enrolled();
    expect(mailsTo(user.email).at(-1)).toContain('La double authentification a été activée sur votre compte Réformes');
    await caller.post('api/2fa/recovery-codes', { password: DEMO_PASSWORD, code: recovery[0] });
    expect(mailsTo(user.email).at(-1)).toContain('De nouveaux codes de secours ont été générés pour votre compte Réformes');
    expect((await caller.post('api/2fa/disable', { password: DEMO_PASSWORD, code: codeOf(url, 1) })).statusCode).toBe(200);
    expect(mailsTo(user.email).at(-1)).toContain('La double authentification a été désactivée sur votre compte Réformes');

    const other = await enrolled();
    expect((await admin.post(`users/${other.user.id}/two-factor-reset`)).statusCode).toBe(200);
    const notice = mailsTo(other.user.email).at(-1) ?? '';
    expect(notice).toContain('Un administrateur a réinitialisé la double authentification de votre compte Réformes');
    expect(notice).toContain("Si vous n'êtes pas à l'origine de ce changement");
    for (const code of other.recovery) expect(notice).not.toContain(code);
    expect(mailsTo(user.email).join('\n')).not.toContain(DEMO_PASSWORD);
  });
});

describe('the key of the TOTP secrets (TOTP_ENCRYPTION_KEY, issue 29)', { timeout: 120_000 }, () => {
  const KEY_A = 'clé-A-de-chiffrement-des-secrets-totp-0001';
  const KEY_B = 'clé-B-de-chiffrement-des-secrets-totp-0002';
  let t: TestApp;
  const apps: App[] = [];

  /** Another server on the same database, with its own keys: as after a restart with TOTP_ENCRYPTION_KEY changed. */
  async function serverWith(keys: string[]) {
    const app = await buildApp({ config: { ...t.config, totpEncryptionKeys: keys }, database: t.database, logger: false });
    await app.ready();
    apps.push(app);
    const post = (url: string, payload: object, token?: string) =>
      app.inject({ method: 'POST', url: `/api/v1/${url}`, payload, headers: token ? bearer(token) : {} });
    return {
      post,
      /** The code step of the sign-in of `email`. */
      async secondStep(email: string, code: string) {
        const first = await post('api/login', { email, password: DEMO_PASSWORD, device: 'web' });
        return post('api/login/2fa', { challenge_token: first.json().data.challenge_token, code });
      },
    };
  }

  /** An account enrolled on `server`: its otpauth URL and recovery codes. */
  async function enrolledOn(server: Awaited<ReturnType<typeof serverWith>>) {
    const user = await t.createAccount('publication');
    const session = (await server.post('api/login', { email: user.email, password: DEMO_PASSWORD, device: 'web' })).json().data;
    const setup = (await server.post('api/2fa/setup', {}, session.access_token)).json().data;
    const enable = await server.post('api/2fa/enable', { password: DEMO_PASSWORD, code: codeOf(setup.otpauth_url) }, session.access_token);
    expect(enable.statusCode, enable.body).toBe(200);
    return { user, url: setup.otpauth_url as string, recovery: enable.json().data.recovery_codes as string[] };
  }

  beforeAll(async () => {
    // Each sign-in with a second factor counts until its code is right: room for the failures shown here.
    t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000', LOGIN_MAX_FAILURES: '20' });
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await t.close();
  });

  it('is read as a list "new,old" of keys of 32 characters at least', () => {
    const env = { NODE_ENV: 'test', DATA_DIR: '/tmp/reformes-config' };
    expect(loadConfig(env).totpEncryptionKeys).toEqual([]);
    expect(loadConfig({ ...env, TOTP_ENCRYPTION_KEY: `${KEY_B}, ${KEY_A}` }).totpEncryptionKeys).toEqual([KEY_B, KEY_A]);
    expect(() => loadConfig({ ...env, TOTP_ENCRYPTION_KEY: `${KEY_B},trop-court` })).toThrow(/TOTP_ENCRYPTION_KEY/);
  });

  it('after a change of key, the code step answers what to do (409), not a 500; listing the old key after the new one works', async () => {
    const onA = await serverWith([KEY_A]);
    const { user, url, recovery } = await enrolledOn(onA);

    const onB = await serverWith([KEY_B]);
    const lost = await onB.secondStep(user.email, codeOf(url, 1));
    expect(lost.statusCode).toBe(409);
    expect(lost.json()).toMatchObject({ message: TWO_FACTOR_MESSAGES.keyChanged });
    // Recovery codes were hashed with the old key too: an administrator's reset is the way out.
    expect((await onB.secondStep(user.email, recovery[0])).statusCode).toBe(401);

    const [before] = await t.db.select({ secret: users.totp_secret }).from(users).where(eq(users.id, user.id));
    const rotating = await serverWith([KEY_B, KEY_A]);
    const signedIn = await rotating.secondStep(user.email, codeOf(url, 1));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect((await rotating.secondStep(user.email, recovery[0])).statusCode).toBe(200);
    // Sealed again with the new key at its first use: the old key may then leave the list.
    const [after] = await t.db.select({ secret: users.totp_secret }).from(users).where(eq(users.id, user.id));
    expect(after.secret).not.toBe(before.secret);
    expect((await onB.secondStep(user.email, '000000')).json()).toMatchObject({ message: TWO_FACTOR_MESSAGES.invalidCode });
  });

  it('keeps the enrolments made before the setting existed (derived from JWT_SECRET)', async () => {
    const { user, url } = await enrolledOn(await serverWith([]));
    const signedIn = await (await serverWith([KEY_A])).secondStep(user.email, codeOf(url, 1));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
  });
});
