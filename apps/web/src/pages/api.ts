import { codeOfStatus, ERROR_CODES, type ErrorCode, isErrorCode, MESSAGES } from '@reformes/domain';

/**
 * The pages' calls to the API (issue 41): what a visitor without a session needs of the back office's client
 * (api/client.ts), no more: no bearer token, no renewal, no upload. The answer's `{message, errorsList, code}` of a
 * refusal arrives as a PageApiError.
 */
export const API_BASE = '/api/v1';

/** An HTTP failure with the server's message and code (status 0 when the server was not reached). */
export class PageApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly errorsList?: Record<string, string[]>;

  constructor(status: number, message: string, code: ErrorCode, errorsList?: Record<string, string[]>) {
    super(message);
    this.name = 'PageApiError';
    this.status = status;
    this.code = code;
    this.errorsList = errorsList;
  }
}

export interface PageRequest {
  /** The X-Action header every call declares (spec §6). */
  action: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
}

function urlOf(path: string, query: PageRequest['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
  const search = params.toString();
  return `${API_BASE}/${path.replace(/^\/+/, '')}${search ? `?${search}` : ''}`;
}

const xsrfToken = () =>
  document.cookie
    .split('; ')
    .find((entry) => entry.startsWith('XSRF-TOKEN='))
    ?.slice('XSRF-TOKEN='.length);

async function jsonOf(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/** Calls the API; resolves with the parsed JSON body, rejects with a PageApiError (or the AbortError of `signal`). */
export async function pageRequest<T>(method: 'GET' | 'POST', path: string, options: PageRequest): Promise<T> {
  const headers = new Headers({ Accept: 'application/json', 'X-Action': options.action });
  if (options.body !== undefined) headers.set('Content-Type', 'application/json');
  const xsrf = method === 'GET' ? undefined : xsrfToken();
  if (xsrf) headers.set('X-XSRF-TOKEN', decodeURIComponent(xsrf));
  let response: Response;
  try {
    response = await fetch(urlOf(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.log(MESSAGES.unknownError, error);
    throw new PageApiError(0, MESSAGES.unknownError, ERROR_CODES.networkError);
  }
  const body = (await jsonOf(response)) as { message?: unknown; errorsList?: Record<string, string[]>; code?: unknown } | undefined;
  if (response.ok) return body as T;
  const fallback = response.status >= 500 ? MESSAGES.internalError : MESSAGES.unknownError;
  const message = typeof body?.message === 'string' && body.message ? body.message : fallback;
  throw new PageApiError(response.status, message, isErrorCode(body?.code) ? body.code : codeOfStatus(response.status), body?.errorsList);
}
