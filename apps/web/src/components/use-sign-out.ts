import { MESSAGES, TITLES } from '@reformes/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { signOut } from '../api/session-api.ts';
import { clearSession } from '../session/session.ts';
import { notifySuccess } from './notify.tsx';

/** Ends the local session: stored entries and cached data go, the visitor lands on /login (spec §2.2). */
export function useEndSession() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    (destination = '/login') => {
      clearSession();
      queryClient.clear();
      navigate(destination, { replace: true });
      notifySuccess(MESSAGES.logoutSuccess, TITLES.login);
    },
    [navigate, queryClient],
  );
}

/** "Déconnexion": tells the server (its failure does not matter), then ends the local session. */
export function useSignOut() {
  const endSession = useEndSession();
  return useCallback(async () => {
    await signOut().catch(() => undefined);
    endSession();
  }, [endSession]);
}
