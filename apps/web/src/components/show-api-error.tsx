import { MESSAGES } from '@reformes/domain';
import { ApiError } from '../api/api-error.ts';
import { ErrorMessage } from './error-message.tsx';
import { notifyError } from './notify.tsx';

/**
 * Shows a failed call the way spec §8 does: titled by feature, the server's message in bold and its
 * field errors as bullets. A failure that is not an HTTP answer is only logged.
 */
export function showApiError(error: unknown, title: string): void {
  if (error instanceof ApiError) {
    notifyError(<ErrorMessage message={error.message} errorsList={error.errorsList} />, title);
  } else {
    console.log(MESSAGES.unknownError, error);
  }
}
