/**
 * The browser-stored session of spec §3: every entry is JSON-encoded in localStorage.
 * The keys and the sign-in's writes are the domain's browser-handover.ts, which the public sign-in page shares.
 */

import { type TokenPair as ApiTokenPair, type CurrentUser, readStored, SESSION_KEYS, writeSignIn, writeTokens } from '@reformes/domain';

export type { CurrentUser };
export { SESSION_KEYS };

export interface Session {
  accessToken: string | null;
  refreshToken: string | null;
  /** Epoch milliseconds after which the access token is expired. */
  tokenExpiry: number | null;
  features: string[];
  user: CurrentUser | null;
  roleIndex: number;
}

/** What the session keeps of the API's token pair (spec §3). */
export type TokenPair = Pick<ApiTokenPair, 'access_token' | 'refresh_token' | 'expire_in'>;

const read = <T>(key: string, fallback: T): T => readStored(localStorage, key, fallback);

function write(key: string, value: unknown): void {
  localStorage.setItem(key, JSON.stringify(value));
}

function readSession(): Session {
  return {
    accessToken: read<string | null>(SESSION_KEYS.accessToken, null),
    refreshToken: read<string | null>(SESSION_KEYS.refreshToken, null),
    tokenExpiry: read<number | null>(SESSION_KEYS.tokenExpiry, null),
    features: read<string[]>(SESSION_KEYS.features, []),
    user: read<CurrentUser | null>(SESSION_KEYS.user, null),
    roleIndex: read<number>(SESSION_KEYS.roleIndex, 0),
  };
}

let snapshot: Session | undefined;
const listeners = new Set<() => void>();

function changed(): void {
  snapshot = undefined;
  for (const listener of listeners) listener();
}

/** The current session; the same object until the session changes (fit for useSyncExternalStore). */
export function getSession(): Session {
  snapshot ??= readSession();
  return snapshot;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || Object.values<string>(SESSION_KEYS).includes(event.key)) changed();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function storeTokens(tokens: TokenPair): void {
  writeTokens(localStorage, tokens);
  changed();
}

/** Stores everything a successful sign-in returns; the role index starts at the first role. */
export function storeSignIn(data: TokenPair & { features: string[]; user: CurrentUser }): void {
  writeSignIn(localStorage, data);
  changed();
}

/** Stores the current user; when the answer carries the rights (`GET api/user`), they replace the stored ones. */
export function storeUser(user: CurrentUser & { features?: string[] }): void {
  const { features, ...rest } = user;
  if (Array.isArray(features)) write(SESSION_KEYS.features, features);
  write(SESSION_KEYS.user, rest);
  changed();
}

/** Forgets the signed-in session (tokens, user, features, role) and the chosen exercice. */
export function clearSession(): void {
  for (const key of [
    SESSION_KEYS.accessToken,
    SESSION_KEYS.refreshToken,
    SESSION_KEYS.tokenExpiry,
    SESSION_KEYS.features,
    SESSION_KEYS.user,
    SESSION_KEYS.roleIndex,
    SESSION_KEYS.exercice,
  ]) {
    localStorage.removeItem(key);
  }
  changed();
}
