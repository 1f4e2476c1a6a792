import { AUTH_ROUTES, type ProfileInput } from '@reformes/domain';
import { call } from '../../api/call.ts';

/** `current_password` goes along only when the email changes (issue 14). */
export function updateProfile(input: ProfileInput & { current_password?: string }) {
  return call(AUTH_ROUTES.updateProfile, { body: input });
}
