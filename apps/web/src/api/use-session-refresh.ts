import { useCallback, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { getSession, storeUser } from '../session/session.ts';
import { fetchCurrentUser } from './session-api.ts';

/** The stored user and rights are asked for again at most this often. */
export const SESSION_REFRESH_MS = 5000;

let running: Promise<void> | undefined;

/**
 * Reads the signed-in user and its rights again (`GET api/user`) and stores them when they changed,
 * so the screens follow a change of profile without signing in again. One call at a time; a failure
 * is ignored (a 401 already signs the user out in the API client).
 */
export function refreshSession(): Promise<void> {
  running ??= (async () => {
    const token = getSession().accessToken;
    if (!token) return;
    try {
      const { data } = await fetchCurrentUser();
      const { features: stored, user } = getSession();
      // Signed out (or in as someone else) meanwhile: the answer belongs to nobody now.
      if (getSession().accessToken !== token || !data) return;
      const { features = stored, ...fresh } = data as typeof data & { features?: string[] };
      if (JSON.stringify(fresh) !== JSON.stringify(user) || JSON.stringify(features) !== JSON.stringify(stored)) {
        storeUser({ ...fresh, features });
      }
    } catch {
      // Kept as stored: the next navigation or focus tries again.
    }
  })().finally(() => {
    running = undefined;
  });
  return running;
}

/** Refreshes the session on each navigation inside the back-office and when the window gets the focus back, throttled. */
export function useSessionRefresh(): void {
  const { pathname } = useLocation();
  const lastRefresh = useRef(0);

  const refreshIfDue = useCallback(() => {
    if (Date.now() - lastRefresh.current < SESSION_REFRESH_MS) return;
    lastRefresh.current = Date.now();
    void refreshSession();
  }, []);

  useEffect(() => {
    if (pathname.startsWith('/admin')) refreshIfDue();
  }, [pathname, refreshIfDue]);

  useEffect(() => {
    window.addEventListener('focus', refreshIfDue);
    return () => window.removeEventListener('focus', refreshIfDue);
  }, [refreshIfDue]);
}
