import { AUTH_ROUTES } from '@reformes/domain';
import { call } from './call.ts';

/** `GET api/user`: the signed-in user, and the rights when the server sends them. */
export function fetchCurrentUser() {
  return call(AUTH_ROUTES.currentUser, {});
}

export function signOut() {
  return call(AUTH_ROUTES.logout, {});
}
