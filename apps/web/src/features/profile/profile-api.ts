import type { ProfileInput } from '@reformes/domain';
import { type ApiResponse, api } from '../../api/client.ts';
import type { CurrentUser } from '../../app/session.ts';

export function updateProfile(input: ProfileInput) {
  return api.post<ApiResponse<CurrentUser>>('api/user-update', { action: 'edit', body: input });
}
