import { DIRECTORY_CALLBACK_PATH } from '@reformes/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const STATE_COOKIE = 'reformes_directory_state';
/** Ten minutes, the dance's own limit (directory.service.ts). */
const MAX_AGE_SECONDS = 600;
const SENT_COOKIE = new RegExp(`(?:^|;\\s*)${STATE_COOKIE}=([A-Za-z0-9_-]{32,128})(?:;|$)`);

/**
 * The browser's half of a dance (issue 42): the `state` it started, sent back only to the callback. HttpOnly;
 * SameSite=Lax, so that the provider's redirect (a top-level GET from another site) carries it; Secure over HTTPS.
 * Its other half, the nonce and PKCE verifier, is in the database under the state's hash, so any instance completes it.
 */
export function setStateCookie(request: FastifyRequest, reply: FastifyReply, state: string): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${STATE_COOKIE}=${state}; Path=${DIRECTORY_CALLBACK_PATH}; Max-Age=${MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
  );
}

/** Spent once the callback answers, whatever its outcome. */
export function clearStateCookie(request: FastifyRequest, reply: FastifyReply): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header('set-cookie', `${STATE_COOKIE}=; Path=${DIRECTORY_CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
}

export function stateCookieOf(request: FastifyRequest): string | undefined {
  return SENT_COOKIE.exec(request.headers.cookie ?? '')?.[1];
}
