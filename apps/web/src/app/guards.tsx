import { Alert, Stack, Title } from '@mantine/core';
import { type Action, type FeatureName, homeOf, MESSAGES, mustEnrol, TITLES } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router';
import { fetchCurrentUser } from '../api/session-api.ts';
import { ErrorAlert } from '../components/error-alert.tsx';
import { storeUser } from '../session/session.ts';
import { useCan } from '../session/use-can.ts';
import { useSession } from '../session/use-session.ts';
import { LoadingScreen } from './loading-screen.tsx';

/** /auth/two-factor-setup: only for a signed-in user whose role demands a second factor not yet enrolled. */
export function RequireTwoFactorSetup() {
  const { accessToken, user } = useSession();
  if (!accessToken) return <Navigate to="/login" replace />;
  return user && mustEnrol(user) && !user.must_change_password ? <Outlet /> : <Navigate to={homeOf(user)} replace />;
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
  if (mustEnrol(user)) return <Navigate to="/auth/two-factor-setup" replace />;
  return <Outlet />;
}

interface RequireRightProps {
  feature: FeatureName;
  action?: Action;
  /** The screen's title, shown above the refusal. */
  title: string;
  /** The refusal's title; the screen's by default. */
  alertTitle?: string;
}

/** A screen for the holders of `feature.action` only: the others get its title and a refusal, and no request is sent. */
export function RequireRight({ feature, action = 'list', title, alertTitle = title }: RequireRightProps) {
  if (useCan(feature, action)) return <Outlet />;
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      <Alert color="red" title={alertTitle} role="alert">
        {MESSAGES.forbidden}
      </Alert>
    </Stack>
  );
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
