import type { ChangePasswordInput, UserSetting } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { type ApiResponse, api } from '../../api/client.ts';
import type { CurrentUser } from '../../session/session.ts';

/** Where signatures are stored (architecture §4): disk "local", folder "director". */
const SIGNATURE_FILE = { folder: 'director', disk: 'local' } as const;

/** A new email goes with the current password (issue 14); the same email alone needs none. */
export function updateEmail(email: string, currentPassword?: string) {
  const body = currentPassword === undefined ? { email } : { email, current_password: currentPassword };
  return api.post<ApiResponse<CurrentUser>>('api/user-update', { action: 'edit', body });
}

export function changePassword(input: ChangePasswordInput) {
  return api.post<{ message: string }>('api/change-password', { action: 'edit', body: input });
}

/** Spec §4: update the existing settings (POST with `_method=patch`), else create them. */
export function uploadSignature(file: File, settingId: number | undefined) {
  const body = new FormData();
  if (settingId === undefined) {
    body.append('signature', file);
    return api.post<ApiResponse<UserSetting>>('user-settings', { action: 'add', body });
  }
  // Fields before the file: the server reads the multipart parts in order.
  body.append('_method', 'patch');
  body.append('signature', file);
  return api.post<ApiResponse<UserSetting>>(`user-settings/${settingId}`, { action: 'edit', body });
}

/** The stored signature as a data URL, fetched by its file name (spec §4 "Account signature"). */
export function signatureImageQuery(filename: string | null | undefined) {
  return queryOptions({
    queryKey: ['signature-image', filename],
    queryFn: ({ signal }) => api.post<ApiResponse<string[]>>('get-file', { action: 'list', body: { ...SIGNATURE_FILE, filename }, signal }),
    select: (response) => response.data[0],
    enabled: Boolean(filename),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export type { UserSetting };
