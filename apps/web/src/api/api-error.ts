export type ErrorsList = Record<string, string[]>;

/** An HTTP failure with the server's `{message, errorsList}` (status 0 when the server was not reached). */
export class ApiError extends Error {
  readonly status: number;
  readonly errorsList?: ErrorsList;

  constructor(status: number, message: string, errorsList?: ErrorsList) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errorsList = errorsList;
  }
}
