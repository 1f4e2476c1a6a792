import { DIRECTORY_MESSAGES } from '@reformes/domain';
import { lt } from 'drizzle-orm';
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type * as client from 'openid-client';
import type { Db } from '../../db/client.ts';
import { directoryLogoutTokens } from '../../db/schema/index.ts';
import { AppError } from '../../http/app-error.ts';
import { hashToken } from '../auth/sessions.ts';

const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** A logout token issued longer ago than this is refused (its `jti` is kept this long against a replay). */
const MAX_AGE_SECONDS = 10 * 60;
const CLOCK_TOLERANCE_SECONDS = 30;

const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
function keysOf(jwksUri: string) {
  let keys = keySets.get(jwksUri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: 10_000 });
    keySets.set(jwksUri, keys);
  }
  return keys;
}

const refused = (why: string) => new AppError(400, `${DIRECTORY_MESSAGES.logoutTokenRefused} (${why})`);

/**
 * OpenID Connect Back-Channel Logout 1.0, § 2.6, with jose (the maintained library openid-client is built on): the
 * signature by the provider's keys, `iss`, `aud` (our client), `iat` (at most 10 minutes old, 30 s of tolerance),
 * the back-channel `events` member, a `sid` or a `sub`, no `nonce`, and a `jti` never seen before.
 */
export async function checkLogoutToken(db: Db, config: client.Configuration, clientId: string, token: string): Promise<JWTPayload> {
  const metadata = config.serverMetadata();
  if (!metadata.jwks_uri) throw refused('jwks_uri');
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(token, keysOf(metadata.jwks_uri), {
      issuer: metadata.issuer,
      audience: clientId,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: MAX_AGE_SECONDS,
      requiredClaims: ['iat', 'jti'],
    }));
  } catch (error) {
    throw refused(error instanceof Error && 'code' in error ? String(error.code) : 'signature');
  }
  const events = claims.events;
  if (!events || typeof events !== 'object' || !(BACKCHANNEL_EVENT in events)) throw refused('events');
  if (typeof (events as Record<string, unknown>)[BACKCHANNEL_EVENT] !== 'object') throw refused('events');
  if ('nonce' in claims) throw refused('nonce');
  if (typeof claims.sid !== 'string' && typeof claims.sub !== 'string') throw refused('sid');
  const expiresAt = new Date(((claims.iat as number) + MAX_AGE_SECONDS + CLOCK_TOLERANCE_SECONDS) * 1000);
  await db.delete(directoryLogoutTokens).where(lt(directoryLogoutTokens.expires_at, new Date()));
  const fresh = await db
    .insert(directoryLogoutTokens)
    .values({ jti_hash: hashToken(`${metadata.issuer} ${claims.jti}`), expires_at: expiresAt })
    .onConflictDoNothing()
    .returning({ jti: directoryLogoutTokens.jti_hash });
  if (fresh.length === 0) throw refused('replay');
  return claims;
}
