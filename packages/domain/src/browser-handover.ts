import type { CurrentUser, SignIn } from './shapes/auth.ts';

/**
 * What the public pages (apps/web/src/pages, no React) and the back office (React) hand each other in the browser's
 * storage, as they load one another's document (issue 34): the signed-in session, written by the sign-in page and
 * read by the back office, and the toasts shown on the next page ("Connexion réussie", "Déconnexion réussie"). Both
 * sides import it from here, the one place they may both import (issue 41); it names the keys once.
 */

/** localStorage or sessionStorage; any store with their three calls (a test's Map). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The browser-stored session of spec §3, in localStorage: every entry JSON-encoded. */
export const SESSION_KEYS = {
  accessToken: 'access_token',
  refreshToken: 'refresh_token',
  tokenExpiry: 'token_expiry',
  features: 'features',
  user: 'current_user',
  roleIndex: 'current_role_index',
  selectedChild: 'selected_child',
  exercice: 'exercice',
} as const;

/** A stored entry, or `fallback` when it is missing or not JSON. */
export function readStored<T>(store: KeyValueStore, key: string, fallback: T): T {
  const raw = store.getItem(key);
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}

const write = (store: KeyValueStore, key: string, value: unknown) => store.setItem(key, JSON.stringify(value));

/** What the session keeps of the API's token pair (spec §3). */
export type StoredTokens = Pick<SignIn, 'access_token' | 'refresh_token' | 'expire_in'>;

export function writeTokens(store: KeyValueStore, tokens: StoredTokens, now = Date.now()): void {
  write(store, SESSION_KEYS.accessToken, tokens.access_token);
  write(store, SESSION_KEYS.refreshToken, tokens.refresh_token);
  write(store, SESSION_KEYS.tokenExpiry, now + tokens.expire_in * 1000);
}

/** Everything a successful sign-in returns; the role index starts at the first role. */
export function writeSignIn(store: KeyValueStore, data: StoredTokens & Pick<SignIn, 'features' | 'user'>, now = Date.now()): void {
  write(store, SESSION_KEYS.features, data.features);
  write(store, SESSION_KEYS.user, data.user);
  write(store, SESSION_KEYS.roleIndex, 0);
  writeTokens(store, data, now);
}

/** A user whose role demands a second factor it has not enrolled yet (issue 18). */
export const mustEnrol = (user: CurrentUser | null) => Boolean(user?.two_factor?.required && !user.two_factor.enabled);

/**
 * Where a signed-in visitor belongs: the first-password screen until the temporary password is replaced, then the
 * enrolment of a second factor its role demands, then the dashboard.
 */
export function homeOf(user: CurrentUser | null): string {
  if (user?.must_change_password) return '/auth/activate-account';
  return mustEnrol(user) ? '/auth/two-factor-setup' : '/admin/dashboard';
}

/** A toast as the back office shows it, and as a page hands it to the next one. */
export interface Toast {
  color: 'green' | 'red' | 'yellow';
  title?: string;
  message: string;
  /** Milliseconds; 5 s by default (spec §9). */
  autoClose?: number;
}

/** The toasts handed to the next page, in sessionStorage, read once. */
export const HANDED_TOASTS_KEY = 'pending_toasts';

/** The toasts left for the next page, after those already waiting. */
export function keepToasts(store: KeyValueStore, toasts: Toast[]): void {
  if (toasts.length === 0) return;
  store.setItem(HANDED_TOASTS_KEY, JSON.stringify([...takeToasts(store), ...toasts]));
}

/** The toasts left for this page, forgotten once read. */
export function takeToasts(store: KeyValueStore): Toast[] {
  const toasts = readStored<unknown>(store, HANDED_TOASTS_KEY, []);
  store.removeItem(HANDED_TOASTS_KEY);
  return Array.isArray(toasts) ? (toasts as Toast[]) : [];
}
