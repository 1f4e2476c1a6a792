/**
 * What a refusal is, for code to decide by (issue 41): every error answer carries one of these in `code`, beside
 * its French `message`, which stays the text a person reads. A screen that must tell two refusals apart compares
 * codes, never messages: a reworded French text then changes nothing but what is shown.
 *
 * Most answers carry the generic code of their status (`codeOfStatus`); a refusal the web must tell apart from
 * others of the same status gets a code of its own, set where it is thrown.
 */
export const ERROR_CODES = {
  // The generic code of each status the API answers.
  badRequest: 'BAD_REQUEST',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  notAcceptable: 'NOT_ACCEPTABLE',
  conflict: 'CONFLICT',
  /** A request over the server's size limits (a JSON body, too many multipart parts). */
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  invalidInput: 'INVALID_INPUT',
  tooManyRequests: 'TOO_MANY_REQUESTS',
  internalError: 'INTERNAL_ERROR',
  serviceUnavailable: 'SERVICE_UNAVAILABLE',

  // Refusals of their own.
  /** A file over its own limit (413), named in the message. */
  fileTooLarge: 'FILE_TOO_LARGE',
  /** A path the API does not have (404), not a missing element. */
  routeNotFound: 'ROUTE_NOT_FOUND',
  /** A sign-in code sent after its challenge expired (401): the password is needed again. */
  twoFactorChallengeExpired: 'TWO_FACTOR_CHALLENGE_EXPIRED',
  /** A wrong sign-in code (401): the challenge still holds, another code may be tried. */
  twoFactorInvalidCode: 'TWO_FACTOR_INVALID_CODE',

  // The web's own, for a failure without an answer of the API.
  /** The server was not reached (status 0). */
  networkError: 'NETWORK_ERROR',
  /** An answer without a code (a proxy's page, an empty body) and outside the 4xx and 5xx statuses. */
  unknownError: 'UNKNOWN_ERROR',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Every code, for the answer's schema (OpenAPI lists them) and for checking a received one. */
export const ERROR_CODE_VALUES = Object.values(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: ERROR_CODES.badRequest,
  401: ERROR_CODES.unauthenticated,
  403: ERROR_CODES.forbidden,
  404: ERROR_CODES.notFound,
  405: ERROR_CODES.methodNotAllowed,
  406: ERROR_CODES.notAcceptable,
  409: ERROR_CODES.conflict,
  413: ERROR_CODES.payloadTooLarge,
  415: ERROR_CODES.unsupportedMediaType,
  422: ERROR_CODES.invalidInput,
  429: ERROR_CODES.tooManyRequests,
  500: ERROR_CODES.internalError,
  503: ERROR_CODES.serviceUnavailable,
};

/** The generic code of a status: what an answer carries when nothing more specific was set (any other 4xx is a bad request, 5xx an internal error). */
export function codeOfStatus(status: number): ErrorCode {
  const code = STATUS_CODES[status];
  if (code) return code;
  if (status >= 400 && status < 500) return ERROR_CODES.badRequest;
  return status >= 500 && status < 600 ? ERROR_CODES.internalError : ERROR_CODES.unknownError;
}

/** A received value that is one of the codes (an answer from an older or a foreign server may carry none). */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODE_VALUES as readonly string[]).includes(value);
}
