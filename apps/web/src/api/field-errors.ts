import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-error.ts';

/**
 * Puts the server's field errors (`errorsList`) under the form's own fields, for the rules only the server
 * checks (a wrong current password, a too common password): `showFieldErrors(error, setError, ['new_password'])`.
 */
export function showFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: ReadonlyArray<FieldPath<T>>,
): void {
  if (!(error instanceof ApiError)) return;
  for (const field of fields) {
    const [message] = error.errorsList?.[field] ?? [];
    if (message) setError(field, { type: 'server', message });
  }
}
