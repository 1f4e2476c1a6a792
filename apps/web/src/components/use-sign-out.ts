import { MESSAGES, TITLES } from '@reformes/domain';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { signOut } from '../api/session-api.ts';
import { keepToasts } from '../session/flash.ts';
import { leavePage } from '../session/leave-page.ts';
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

/**
 * "Déconnexion": tells the server (its failure does not matter), then ends the local session. A directory session
 * ends at the provider too (issue 42): the server answers its logout address, which comes back to the sign-in page,
 * where "Déconnexion réussie" is shown.
 */
export function useSignOut() {
  const endSession = useEndSession();
  return useCallback(async () => {
    const answer = await signOut().catch(() => undefined);
    if (answer?.logout_url) {
      keepToasts([{ color: 'green', title: TITLES.login, message: MESSAGES.logoutSuccess }]);
      // Cleared as the page goes: cleared now, the guards would send the browser to /login before the provider.
      window.addEventListener('pagehide', () => clearSession(), { once: true });
      leavePage.to(answer.logout_url);
      return;
    }
    endSession();
  }, [endSession]);
}
