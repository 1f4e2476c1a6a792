import { codeOfStatus, type ErrorCode } from '@reformes/domain';

export type ErrorsList = Record<string, string[]>;

/**
 * An HTTP failure with the server's `{message, errorsList, code}` (status 0 when the server was not reached). Code
 * that must tell two refusals apart compares `code` (ERROR_CODES), never `message`, the French text a person reads.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errorsList?: ErrorsList;
  readonly code: ErrorCode;

  /** Without a code, the generic code of the status (an error the web raises itself, e.g. a file refused before sending). */
  constructor(status: number, message: string, errorsList?: ErrorsList, code: ErrorCode = codeOfStatus(status)) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errorsList = errorsList;
    this.code = code;
  }
}
