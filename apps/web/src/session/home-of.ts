import type { CurrentUser } from './session.ts';

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
