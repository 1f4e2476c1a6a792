import {
  ACCOUNT_ROUTES,
  AUTH_ROUTES,
  type ChangePasswordInput,
  REMINDERS_ROUTES,
  type ReminderPreferences,
  type UserSetting,
} from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

/** Where signatures are stored (architecture §4): disk "local", folder "director". */
const SIGNATURE_FILE = { folder: 'director', disk: 'local' } as const;

/** A new email goes with the current password (issue 14); the same email alone needs none. */
export function updateEmail(email: string, currentPassword?: string) {
  const body = currentPassword === undefined ? { email } : { email, current_password: currentPassword };
  return call(AUTH_ROUTES.updateProfile, { body });
}

export function changePassword(input: ChangePasswordInput) {
  return call(ACCOUNT_ROUTES.changePassword, { body: input });
}

/** Spec §4: update the existing settings (POST with `_method=patch`), else create them. */
export function uploadSignature(file: File, settingId: number | undefined) {
  const form = new FormData();
  if (settingId === undefined) {
    form.append('signature', file);
    return call(ACCOUNT_ROUTES.uploadSignature, { form });
  }
  // Fields before the file: the server reads the multipart parts in order.
  form.append('_method', 'patch');
  form.append('signature', file);
  return call(ACCOUNT_ROUTES.replaceSignature, { params: { id: settingId }, form });
}

/** The stored signature as a data URL, fetched by its file name (spec §4 "Account signature"). */
export function signatureImageQuery(filename: string | null | undefined) {
  return queryOptions({
    queryKey: ['signature-image', filename],
    queryFn: ({ signal }) => call(ACCOUNT_ROUTES.getFile, { body: { ...SIGNATURE_FILE, filename: filename ?? '' }, signal }),
    select: (response) => response.data[0],
    enabled: Boolean(filename),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export type { UserSetting };

/** `GET api/user/reminders`: the caller's two reminder digests, on or off (issue 32). */
export const reminderPreferencesQuery = () =>
  queryOptions({
    queryKey: ['reminder-preferences'],
    queryFn: ({ signal }) => call(REMINDERS_ROUTES.preferences, { signal }),
    select: (answer) => answer.data,
  });

export const saveReminderPreferences = (body: ReminderPreferences) => call(REMINDERS_ROUTES.savePreferences, { body });
