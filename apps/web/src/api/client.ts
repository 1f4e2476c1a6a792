import { type AnswerOf, type AUTH_ROUTES, codeOfStatus, ERROR_CODES, isErrorCode, MESSAGES } from '@reformes/domain';
import { clearSession, getSession, storeTokens } from '../session/session.ts';
import { ApiError, type ErrorsList } from './api-error.ts';

export const API_BASE = '/api/v1';

/** The action every call declares in the X-Action header (spec §6). */
export type ApiAction = 'list' | 'add' | 'show' | 'edit' | 'delete' | 'status';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  action: ApiAction;
  /** JSON body, or FormData sent as multipart. */
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** Set on the sign-in call: its 401 means wrong credentials, not an expired session. */
  skipSessionRenewal?: boolean;
  /** Upload progress (0 to 1) of a FormData body; the request then goes by XMLHttpRequest, which reports it. */
  onUploadProgress?: (share: number) => void;
}

let onSessionExpired: () => void = () => window.location.assign('/login');

/** Where to go once the session cannot be renewed (the router registers its navigation here). */
export function setSessionExpiredHandler(handler: () => void): void {
  onSessionExpired = handler;
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  const url = `${API_BASE}/${path.replace(/^\/+/, '')}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}?${search}` : url;
}

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const cookie = document.cookie.split('; ').find((entry) => entry.startsWith(prefix));
  return cookie ? decodeURIComponent(cookie.slice(prefix.length)) : undefined;
}

function buildHeaders(method: HttpMethod, options: RequestOptions): Headers {
  const headers = new Headers({ Accept: 'application/json', 'X-Action': options.action });
  const { accessToken } = getSession();
  if (accessToken) headers.set('Authorization', `Bearer ${accessToken}`);
  if (options.body !== undefined && !(options.body instanceof FormData)) {
    headers.set('Content-Type', 'application/json');
  }
  const xsrf = method !== 'GET' ? readCookie('XSRF-TOKEN') : undefined;
  if (xsrf) headers.set('X-XSRF-TOKEN', xsrf);
  return headers;
}

/** An upload that reports its progress (fetch does not), answered as a fetch `Response` for the rest of the client. */
function sendWithProgress(method: HttpMethod, url: string, headers: Headers, body: FormData, options: RequestOptions): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    for (const [name, value] of headers) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onUploadProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      const empty = request.status === 204 || request.status === 205 || request.status === 304;
      const type = request.getResponseHeader('Content-Type') ?? 'application/json';
      resolve(new Response(empty ? null : request.responseText, { status: request.status, headers: { 'Content-Type': type } }));
    };
    request.onerror = () => reject(new TypeError('Network request failed'));
    request.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    options.signal?.addEventListener('abort', () => request.abort());
    request.send(body);
  });
}

async function send(method: HttpMethod, path: string, options: RequestOptions): Promise<Response> {
  const { body } = options;
  try {
    if (options.onUploadProgress && body instanceof FormData)
      return await sendWithProgress(method, buildUrl(path, options.query), buildHeaders(method, options), body, options);
    return await fetch(buildUrl(path, options.query), {
      method,
      headers: buildHeaders(method, options),
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.log(MESSAGES.unknownError, error);
    throw new ApiError(0, MESSAGES.unknownError, undefined, ERROR_CODES.networkError);
  }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const body = (await readJson(response)) as { message?: unknown; errorsList?: ErrorsList; code?: unknown } | undefined;
  const fallback = response.status >= 500 ? MESSAGES.internalError : MESSAGES.unknownError;
  const message = typeof body?.message === 'string' && body.message ? body.message : fallback;
  // An answer without a known code (a proxy's error page, an older server) gets the generic code of its status.
  const code = isErrorCode(body?.code) ? body.code : codeOfStatus(response.status);
  return new ApiError(response.status, message, body?.errorsList, code);
}

let renewal: Promise<boolean> | undefined;

/** One refresh at a time: concurrent 401s wait for the same renewal. */
function renewSession(): Promise<boolean> {
  renewal ??= (async () => {
    const { refreshToken } = getSession();
    if (!refreshToken) return false;
    const response = await send('POST', 'api/refresh', {
      action: 'add',
      body: { refresh_token: refreshToken },
      skipSessionRenewal: true,
    }).catch(() => undefined);
    if (!response?.ok) return false;
    const body = (await readJson(response)) as AnswerOf<typeof AUTH_ROUTES.refresh> | undefined;
    if (!body?.data?.access_token) return false;
    storeTokens(body.data);
    return true;
  })().finally(() => {
    renewal = undefined;
  });
  return renewal;
}

/** Sends the call, renewing the session once on a 401; resolves with a successful response, rejects with an ApiError. */
async function sendWithSession(method: HttpMethod, path: string, options: RequestOptions): Promise<Response> {
  let response = await send(method, path, options);
  if (response.status === 401 && !options.skipSessionRenewal) {
    if (await renewSession()) response = await send(method, path, options);
    if (response.status === 401) {
      const error = await toApiError(response);
      clearSession();
      onSessionExpired();
      throw error;
    }
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** Calls the API; resolves with the parsed JSON body, rejects with an ApiError. */
export async function apiRequest<T>(method: HttpMethod, path: string, options: RequestOptions): Promise<T> {
  const response = await sendWithSession(method, path, options);
  return (await readJson(response)) as T;
}

/** Reads a file the API streams (an attachment's PDF): the bearer token travels, which a plain link cannot do. */
export async function apiBlob(path: string, options: RequestOptions): Promise<Blob> {
  const response = await sendWithSession('GET', path, options);
  return response.blob();
}

export const api = {
  get: <T>(path: string, options: RequestOptions) => apiRequest<T>('GET', path, options),
  post: <T>(path: string, options: RequestOptions) => apiRequest<T>('POST', path, options),
  put: <T>(path: string, options: RequestOptions) => apiRequest<T>('PUT', path, options),
  patch: <T>(path: string, options: RequestOptions) => apiRequest<T>('PATCH', path, options),
  delete: <T>(path: string, options: RequestOptions) => apiRequest<T>('DELETE', path, options),
};
