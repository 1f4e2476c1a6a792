import type { ProfileInput } from '@reformes/domain';
import { type ApiResponse, api } from '../../api/client.ts';
import type { CurrentUser } from '../../session/session.ts';

/** `current_password` goes along only when the email changes (issue 14). */
export function updateProfile(input: ProfileInput & { current_password?: string }) {
  return api.post<ApiResponse<CurrentUser>>('api/user-update', { action: 'edit', body: input });
}
