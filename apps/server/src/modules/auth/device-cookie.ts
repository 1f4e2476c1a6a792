import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '../../http/guard.ts';
import { emailKey } from './throttles.ts';

export const DEVICE_COOKIE = 'reformes_device';
/** Sent back only to the sign-in's two steps (`…/api/login` and `…/api/login/2fa`). */
const DEVICE_COOKIE_PATH = `${API_BASE}/api/login`;
const DEVICE_COOKIE_DAYS = 30;
/** The cookie as the browser sends it back among others: `…; reformes_device=1767225600.<43 base64url characters>`. */
const SENT_COOKIE = new RegExp(`(?:^|;\\s*)${DEVICE_COOKIE}=(\\d{1,12})\\.([A-Za-z0-9_-]{43})(?:;|$)`);

const keyOf = (jwtSecret: string) => Buffer.from(hkdfSync('sha256', jwtSecret, 'reformes', 'device-cookie-v1', 32));
const macOf = (key: Buffer, email: string, expires: number) =>
  createHmac('sha256', key)
    .update(`${emailKey(email)}.${expires}`)
    .digest('base64url');
const cookieValueOf = (key: Buffer, email: string, expires: number) => `${expires}.${macOf(key, email, expires)}`;

/** `expires.mac`: until `expires` (Unix seconds), this device signed in to the account of `email`. */
export function deviceCookieValue(jwtSecret: string, email: string, expires: number): string {
  return cookieValueOf(keyOf(jwtSecret), email, expires);
}

/**
 * "This device signed in to this account lately" (issue 40, item 8): set after a complete sign-in (password, and the
 * code when the account has a second factor), it lets its holder's sign-in attempts past the account's ceiling
 * (LOGIN_ACCOUNT_MAX_FAILURES_PER_HOUR), so that a distributed attack cannot lock the owner out; the per-client back-off
 * still applies. It authorises nothing by itself (the bearer token stays the only credential): it names no account in
 * clear, only an HMAC of the account's email and its expiry, with a key derived from JWT_SECRET.
 */
export function createDeviceCookies(jwtSecret: string) {
  const key = keyOf(jwtSecret);
  return {
    /** Whether the request carries a cookie of this server, unexpired, for `email`. */
    isTrustedFor(request: FastifyRequest, email: string): boolean {
      const value = SENT_COOKIE.exec(request.headers.cookie ?? '');
      if (!value) return false;
      const expires = Number(value[1]);
      const expected = Buffer.from(macOf(key, email, expires));
      const sent = Buffer.from(value[2]);
      return expires > Date.now() / 1000 && sent.length === expected.length && timingSafeEqual(sent, expected);
    },

    /** Sets the cookie of `email` on the answer of a complete sign-in: HttpOnly, SameSite=Strict, Secure over HTTPS. */
    setFor(request: FastifyRequest, reply: FastifyReply, email: string): void {
      const maxAge = DEVICE_COOKIE_DAYS * 86_400;
      const expires = Math.floor(Date.now() / 1000) + maxAge;
      const value = cookieValueOf(key, email, expires);
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply.header(
        'set-cookie',
        `${DEVICE_COOKIE}=${value}; Path=${DEVICE_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${secure}`,
      );
    },
  };
}

export type DeviceCookies = ReturnType<typeof createDeviceCookies>;
