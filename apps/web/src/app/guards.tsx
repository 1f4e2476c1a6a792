import { TITLES } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { ErrorAlert } from '../components/error-alert.tsx';
import { type CurrentUser, storeUser } from '../session/session.ts';
import { fetchCurrentUser } from '../session/session-api.ts';
import { useSession } from '../session/use-session.ts';
import { LoadingScreen } from './loading-screen.tsx';

/** Where a signed-in visitor belongs: the first-password screen until the temporary password is replaced. */
export function homeOf(user: CurrentUser | null): string {
  return user?.must_change_password ? '/auth/activate-account' : '/admin/dashboard';
}

/** Sign-in screens are for visitors without a stored token (spec §2.1). */
export function RequireGuest() {
  const { accessToken, user } = useSession();
  return accessToken ? <Navigate to={homeOf(user)} replace /> : <Outlet />;
}

/** /auth/activate-account: only for a signed-in user who must change the password. */
export function RequireFirstPassword() {
  const { accessToken, user } = useSession();
  return accessToken && user?.must_change_password ? <Outlet /> : <Navigate to="/login" replace />;
}

/** /admin: only with a stored token; the stored user is fetched again if it went missing. */
export function RequireSession() {
  const { accessToken, user } = useSession();
  if (!accessToken) return <Navigate to="/login" replace />;
  if (!user) return <LoadCurrentUser />;
  if (user.must_change_password) return <Navigate to="/auth/activate-account" replace />;
  return <Outlet />;
}

function LoadCurrentUser() {
  const query = useQuery({ queryKey: ['current-user'], queryFn: fetchCurrentUser });
  const loaded = query.data?.data;
  useEffect(() => {
    if (loaded) storeUser(loaded);
  }, [loaded]);
  if (query.isError) return <ErrorAlert title={TITLES.login} error={query.error} />;
  return <LoadingScreen />;
}
