import { RECOVERY_CODE_COUNT, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, roles, twoFactorRecoveryCodes, users } from '../../db/schema/index.ts';
import { type Caller, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/test-app.ts';

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
    const enable = await caller.post('api/2fa/enable', { code: codeOf(setup.otpauth_url) });
    expect(enable.statusCode, enable.body).toBe(200);
    return { user, caller, url: setup.otpauth_url as string, recovery: enable.json().data.recovery_codes as string[] };
  }

  const login = (email: string, password = DEMO_PASSWORD) => t.anonymous.post('api/login', { email, password, device: 'web' });
  const secondStep = (challenge: string, code: string) => t.anonymous.post('api/login/2fa', { challenge_token: challenge, code });

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_FAILURES: '4' });
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

    const wrong = await caller.post('api/2fa/enable', { code: '000000' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errorsList.code).toEqual([TWO_FACTOR_MESSAGES.invalidCode]);
    const malformed = await caller.post('api/2fa/enable', { code: '12ab' });
    expect(malformed.json().errorsList.code).toEqual([TWO_FACTOR_MESSAGES.codeFormat]);

    const enable = await caller.post('api/2fa/enable', { code: codeOf(otpauth_url) });
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
    expect(first.json()).toEqual({
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

  it('turns off with the password and a code only', async () => {
    const { user, caller, url, recovery } = await enrolled();
    const badPassword = await caller.post('api/2fa/disable', { password: 'Pas-le-bon-2026!', code: recovery[0] });
    expect(badPassword.statusCode).toBe(422);
    expect(badPassword.json().errorsList.password).toEqual([TWO_FACTOR_MESSAGES.wrongPassword]);
    const badCode = await caller.post('api/2fa/disable', { password: DEMO_PASSWORD, code: '000000' });
    expect(badCode.statusCode).toBe(422);
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
      expect((await caller.post('api/2fa/enable', { code: codeOf(setup.otpauth_url) })).statusCode).toBe(200);
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
});
