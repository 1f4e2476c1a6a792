import { codeOfStatus, ERROR_CODES, type ErrorCode, frenchNumberFormat, MESSAGES } from '@reformes/domain';

export type ErrorsList = Record<string, string[]>;

/**
 * The one error the code throws: the error handler turns it into `{message, errorsList, code}`. `code` (ERROR_CODES)
 * is what the web decides by; without one, the generic code of the status.
 */
export class AppError extends Error {
  readonly code: ErrorCode;

  constructor(
    readonly statusCode: number,
    message: string,
    readonly errorsList?: ErrorsList,
    readonly headers?: Record<string, string>,
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? codeOfStatus(statusCode);
  }
}

export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, message, undefined, undefined, ERROR_CODES.notFound);
export const forbidden = (message: string = MESSAGES.forbidden) => new AppError(403, message, undefined, undefined, ERROR_CODES.forbidden);
/** 401; `code` tells apart a refusal the web handles on its own (an expired sign-in challenge). */
export const unauthenticated = (message: string = MESSAGES.unauthenticated, code: ErrorCode = ERROR_CODES.unauthenticated) =>
  new AppError(401, message, undefined, undefined, code);
export const conflict = (message: string = MESSAGES.conflict) => new AppError(409, message, undefined, undefined, ERROR_CODES.conflict);
export const invalid = (errorsList: ErrorsList, message: string = MESSAGES.invalidInput) =>
  new AppError(422, message, errorsList, undefined, ERROR_CODES.invalidInput);
/** 429 saying when to come back, in the message and in `Retry-After` (seconds). */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError(429, message, undefined, { 'retry-after': String(retryAfterSeconds) }, ERROR_CODES.tooManyRequests);

/**
 * A size in French megabytes ("1,5"). The format is built on first use, not when the module loads: an ICU number
 * format maps about 5 MB of the node binary's locale data into the process, which a server at rest need not hold.
 */
export const megabytes = (bytes: number) => frenchNumberFormat(3).format(bytes / 1024 / 1024);

/** 413 naming the limit in French: "Le fichier est trop volumineux. (maximum 2 Mo)". */
export const fileTooLarge = (maxBytes: number) =>
  new AppError(413, `${MESSAGES.fileTooLarge} (maximum ${megabytes(maxBytes)} Mo)`, undefined, undefined, ERROR_CODES.fileTooLarge);

/** 503: a service the request needs (the directory's provider) does not answer; the message says to try again. */
export const serviceUnavailable = (message: string) =>
  new AppError(503, message, undefined, { 'retry-after': '30' }, ERROR_CODES.serviceUnavailable);
