import { type ApiResponse, api } from '../api/client.ts';
import type { CurrentUser } from './session.ts';

/** `GET api/user`: the signed-in user, and the rights when the server sends them. */
export function fetchCurrentUser() {
  return api.get<ApiResponse<CurrentUser>>('api/user', { action: 'show' });
}

export function signOut() {
  return api.get<{ message: string }>('logout', { action: 'list' });
}
