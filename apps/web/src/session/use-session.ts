import { useSyncExternalStore } from 'react';
import { getSession, type Session, subscribeSession } from './session.ts';

/** The stored session, re-rendering when it changes (here or in another tab). */
export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession);
}
