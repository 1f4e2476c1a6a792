import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { ERROR_CODES, RECOVERY_CODE_COUNT, TOTP as TOTP_RULES, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Db } from '../../db/client.ts';
import { twoFactorRecoveryCodes, users } from '../../db/schema/index.ts';
import { AppError, conflict, notFound, unauthenticated } from '../../http/app-error.ts';

/**
 * Keys of the second factor (HKDF-SHA256). TOTP secrets are encrypted at rest (AES-256-GCM) and recovery codes hashed
 * (HMAC-SHA256) with keys derived from TOTP_ENCRYPTION_KEY, a list "new,old": the first seals, any opens, so a key can
 * be rotated. Without it, and after it for what was sealed before it was set, the keys are derived from JWT_SECRET
 * (before issue 29 the only source: changing JWT_SECRET then voided every enrolment). Sign-in challenges are signed
 * with a key derived from JWT_SECRET, which may change freely: a challenge lives 5 minutes.
 */
export function twoFactorKeys(jwtSecret: string, totpEncryptionKeys: readonly string[] = []) {
  const derive = (secret: string, info: string) => Buffer.from(hkdfSync('sha256', secret, 'reformes', info, 32));
  const fromJwtSecret = { secrets: derive(jwtSecret, 'totp-secrets-v1'), recovery: derive(jwtSecret, 'two-factor-signing-v1') };
  const ring = totpEncryptionKeys.map((key) => ({ secrets: derive(key, 'totp-secrets-v1'), recovery: derive(key, 'recovery-codes-v1') }));
  return { ring: [...ring, fromJwtSecret], signing: derive(jwtSecret, 'two-factor-signing-v1') };
}
export type TwoFactorKeys = ReturnType<typeof twoFactorKeys>;

function seal(plain: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The secret, or null when the key is not the one that sealed it (GCM's tag refuses it). */
function unseal(sealed: string, key: Buffer): string | null {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const totpOf = (base32: string, label = '') =>
  new TOTP({
    issuer: TOTP_RULES.issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_RULES.digits,
    period: TOTP_RULES.period,
    secret: Secret.fromBase32(base32),
  });

/** The 30-second step a 6-digit code belongs to (±1 step of drift), or null when it matches none. */
export function stepOfCode(base32: string, code: string, now = Date.now()): number | null {
  const delta = totpOf(base32).validate({ token: code, window: TOTP_RULES.window, timestamp: now });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_RULES.period) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
/** "k7m2p-9xq4r": 10 characters of a 31-letter alphabet without look-alikes (about 50 bits). */
function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = Array.from(bytes, (byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}
const normalizedRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A short-lived, signed proof that the password was right: the code step needs it (5 minutes). */
const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export function createTwoFactor(db: Db, keys: TwoFactorKeys) {
  const [sealingKeys] = keys.ring;
  const hashRecovery = (code: string, key = sealingKeys.recovery) =>
    createHmac('sha256', key).update(normalizedRecovery(code)).digest('base64url');

  /** The secret and whether it was sealed with an older key (then it is sealed again with the first); null when no key opens it. */
  function open(sealed: string): { base32: string; isStale: boolean } | null {
    for (const [index, key] of keys.ring.entries()) {
      const base32 = unseal(sealed, key.secrets);
      if (base32 !== null) return { base32, isStale: index > 0 };
    }
    return null;
  }

  async function secretsOf(userId: number) {
    const [row] = await db
      .select({
        email: users.email,
        firstname: users.firstname,
        lastname: users.lastname,
        secret: users.totp_secret,
        pending: users.totp_pending_secret,
        enabledAt: users.totp_enabled_at,
      })
      .from(users)
      .where(eq(users.id, userId));
    if (!row) throw notFound();
    return row;
  }

  async function newRecoveryCodes(executor: Pick<Db, 'insert' | 'delete'>, userId: number): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await executor.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.user_id, userId));
    await executor.insert(twoFactorRecoveryCodes).values(codes.map((code) => ({ user_id: userId, code_hash: hashRecovery(code) })));
    return codes;
  }

  /**
   * Checks a code of a user with an active second factor: a TOTP code not older than the last one accepted (a code
   * is never accepted twice, even within its 30 seconds), or an unused recovery code, which is then spent. A secret
   * that no key opens any more (TOTP_ENCRYPTION_KEY changed) is a 409 saying so, not a 500: recovery codes hashed with
   * a key still listed work, and an administrator's reset is the way out.
   */
  async function verify(userId: number, code: string): Promise<'totp' | 'recovery' | null> {
    const { secret } = await secretsOf(userId);
    if (!secret) return null;
    const compact = code.replace(/\s+/g, '');
    if (/^\d{6}$/.test(compact)) {
      const opened = open(secret);
      if (!opened) throw conflict(TWO_FACTOR_MESSAGES.keyChanged);
      const step = stepOfCode(opened.base32, compact);
      if (step === null) return null;
      // One statement decides: two requests with the same code cannot both pass.
      const accepted = await db
        .update(users)
        .set({ totp_last_step: step, ...(opened.isStale ? { totp_secret: seal(opened.base32, sealingKeys.secrets) } : {}) })
        .where(and(eq(users.id, userId), or(isNull(users.totp_last_step), lt(users.totp_last_step, step))))
        .returning({ id: users.id });
      return accepted.length > 0 ? 'totp' : null;
    }
    const spent = await db
      .update(twoFactorRecoveryCodes)
      .set({ used_at: new Date() })
      .where(
        and(
          eq(twoFactorRecoveryCodes.user_id, userId),
          inArray(
            twoFactorRecoveryCodes.code_hash,
            keys.ring.map((key) => hashRecovery(compact, key.recovery)),
          ),
          isNull(twoFactorRecoveryCodes.used_at),
        ),
      )
      .returning({ id: twoFactorRecoveryCodes.id });
    return spent.length > 0 ? 'recovery' : null;
  }

  return {
    verify,

    /** A signed challenge naming the user, for the code step of the sign-in. */
    /** `family`: the session a directory sign-in prepared (modules/directory), which the code step then opens. */
    challengeFor(userId: number, family?: string): string {
      const body = Buffer.from(
        JSON.stringify({
          sub: userId,
          exp: Date.now() + CHALLENGE_TTL_MS,
          n: randomBytes(8).toString('hex'),
          ...(family ? { f: family } : {}),
        }),
      ).toString('base64url');
      return `${body}.${createHmac('sha256', keys.signing).update(body).digest('base64url')}`;
    },

    /** The user (and prepared session) of a valid, unexpired challenge; else a 401 asking to sign in again. */
    userOfChallenge(token: string): { userId: number; family?: string } {
      const [body, signature] = token.split('.');
      const expected = body ? createHmac('sha256', keys.signing).update(body).digest() : Buffer.alloc(0);
      const given = Buffer.from(signature ?? '', 'base64url');
      if (!body || given.length !== expected.length || !timingSafeEqual(given, expected))
        throw unauthenticated(TWO_FACTOR_MESSAGES.challengeExpired, ERROR_CODES.twoFactorChallengeExpired);
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { sub?: unknown; exp?: unknown; f?: unknown };
      if (typeof payload.sub !== 'number' || typeof payload.exp !== 'number' || payload.exp < Date.now())
        throw unauthenticated(TWO_FACTOR_MESSAGES.challengeExpired, ERROR_CODES.twoFactorChallengeExpired);
      return { userId: payload.sub, ...(typeof payload.f === 'string' ? { family: payload.f } : {}) };
    },

    /** A new secret to enrol (kept apart until a code confirms it), as a QR code and as a key to type. */
    async setup(userId: number) {
      const { email, enabledAt } = await secretsOf(userId);
      if (enabledAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled);
      const secret = new Secret({ size: 20 });
      await db
        .update(users)
        .set({ totp_pending_secret: seal(secret.base32, sealingKeys.secrets) })
        .where(eq(users.id, userId));
      const otpauthUrl = totpOf(secret.base32, email).toString();
      // Loaded on the first enrolment only (issue 33: memory at rest).
      const { default: QRCode } = await import('qrcode');
      const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 220 });
      return { otpauth_url: otpauthUrl, qr_code: qrCode, secret: secret.base32.replace(/(.{4})/g, '$1 ').trim() };
    },

    /**
     * The enrolment waiting for its first code, and the step of `code` in it (null when wrong). Reads only: the route
     * checks the password with it (reauthenticate) before `enable`.
     */
    async pendingEnrolment(userId: number, code: string) {
      const { pending, enabledAt } = await secretsOf(userId);
      if (enabledAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyEnabled);
      const opened = pending ? open(pending) : null;
      if (!pending || !opened) throw new AppError(409, TWO_FACTOR_MESSAGES.noPendingSetup);
      const compact = code.replace(/\s+/g, '');
      return { sealed: pending, step: /^\d{6}$/.test(compact) ? stepOfCode(opened.base32, compact) : null };
    },

    /** The first code confirmed the enrolment: the second factor is on, and 10 recovery codes are given, once. */
    async enable(executor: Pick<Db, 'update' | 'insert' | 'delete'>, userId: number, enrolment: { sealed: string; step: number }) {
      await executor
        .update(users)
        .set({ totp_secret: enrolment.sealed, totp_pending_secret: null, totp_enabled_at: new Date(), totp_last_step: enrolment.step })
        .where(eq(users.id, userId));
      return newRecoveryCodes(executor, userId);
    },

    /** A new set of recovery codes: the previous ones, used or not, are void. */
    newRecoveryCodes,

    /** Turns the second factor off: everything of it goes, recovery codes included. */
    async clear(executor: Pick<Db, 'update' | 'delete'>, userId: number) {
      await executor
        .update(users)
        .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null })
        .where(eq(users.id, userId));
      await executor.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.user_id, userId));
    },

    secretsOf,

    /** Recovery codes not yet spent. */
    async recoveryCodesLeft(userId: number): Promise<number> {
      const [row] = await db
        .select({ left: sql<number>`count(*)::int` })
        .from(twoFactorRecoveryCodes)
        .where(and(eq(twoFactorRecoveryCodes.user_id, userId), isNull(twoFactorRecoveryCodes.used_at)));
      return row?.left ?? 0;
    },
  };
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;
