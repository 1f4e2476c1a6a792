import { ERROR_CODES, MESSAGES } from '@reformes/domain';
import { describe, expect, it, vi } from 'vitest';
import { getSession } from '../session/session.ts';
import { fakeApi } from '../test/fake-api.ts';
import { aUser, signInAs } from '../test/render-app.tsx';
import { ApiError } from './api-error.ts';
import { api, setSessionExpiredHandler } from './client.ts';

function headersOf(call: unknown[]): Headers {
  return new Headers((call[1] as RequestInit).headers);
}

describe('api client', () => {
  it('sends the bearer token, Accept JSON and the action header to /api/v1', async () => {
    signInAs();
    const fetchMock = fakeApi({ 'GET users': { body: { message: 'ok', data: [] } } });

    await api.get('users', { action: 'list', query: { per_page: 10, page: 1 } });

    const [url] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/v1/users?per_page=10&page=1');
    const headers = headersOf(fetchMock.mock.calls[0]);
    expect(headers.get('Authorization')).toBe('Bearer access-1');
    expect(headers.get('Accept')).toBe('application/json');
    expect(headers.get('X-Action')).toBe('list');
  });

  it('sends no Authorization header without a stored token', async () => {
    const fetchMock = fakeApi({ 'POST api/forgot-password': { body: { message: 'ok' } } });
    await api.post('api/forgot-password', { action: 'add', body: { email: 'a@b.fr' } });
    expect(headersOf(fetchMock.mock.calls[0]).has('Authorization')).toBe(false);
  });

  it('turns an error answer into an ApiError with its field errors', async () => {
    signInAs();
    fakeApi({
      'POST users': { status: 422, body: { message: 'Données invalides', errorsList: { email: ['Email pris'] } } },
    });

    const failure = api.post('users', { action: 'add', body: {} });

    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({
      status: 422,
      message: 'Données invalides',
      errorsList: { email: ['Email pris'] },
      code: ERROR_CODES.invalidInput,
    });
  });

  it("keeps the answer's code, and gives an answer without a known one the generic code of its status", async () => {
    signInAs();
    fakeApi({
      'POST api/login/2fa': { status: 401, body: { message: 'Recommencez', code: ERROR_CODES.twoFactorChallengeExpired } },
      'GET users': { status: 503, body: { message: 'Indisponible' } },
      'GET roles': { status: 409, body: { message: 'Conflit', code: 'PAS_UN_CODE' } },
    });
    await expect(api.post('api/login/2fa', { action: 'add', skipSessionRenewal: true })).rejects.toMatchObject({
      code: ERROR_CODES.twoFactorChallengeExpired,
    });
    await expect(api.get('users', { action: 'list' })).rejects.toMatchObject({ status: 503, code: ERROR_CODES.serviceUnavailable });
    await expect(api.get('roles', { action: 'list' })).rejects.toMatchObject({ status: 409, code: ERROR_CODES.conflict });
  });

  it('renews an expired session once and repeats the call with the new token', async () => {
    signInAs();
    let dashCalls = 0;
    const fetchMock = fakeApi({
      'GET dash/': () => (++dashCalls === 1 ? { status: 401, body: { message: 'expirée' } } : { body: { data: 1 } }),
      'POST api/refresh': { body: { message: 'ok', data: { access_token: 'access-2', refresh_token: 'refresh-2', expire_in: 900 } } },
    });

    await expect(api.get('dash/', { action: 'list' })).resolves.toEqual({ data: 1 });

    expect(JSON.parse(String(fetchMock.mock.calls[1][1]?.body))).toEqual({ refresh_token: 'refresh-1' });
    expect(headersOf(fetchMock.mock.calls[2]).get('Authorization')).toBe('Bearer access-2');
    expect(getSession().refreshToken).toBe('refresh-2');
  });

  it('clears the session and leaves for the login page when the session cannot be renewed', async () => {
    signInAs(aUser());
    localStorage.setItem('exercice', JSON.stringify('2026'));
    const expired = vi.fn();
    setSessionExpiredHandler(expired);
    fakeApi({
      'GET dash/': { status: 401, body: { message: 'expirée' } },
      'POST api/refresh': { status: 401, body: { message: 'invalide' } },
    });

    await expect(api.get('dash/', { action: 'list' })).rejects.toMatchObject({ status: 401 });

    expect(getSession()).toMatchObject({ accessToken: null, refreshToken: null, user: null });
    expect(localStorage.getItem('exercice')).toBeNull();
    expect(expired).toHaveBeenCalledOnce();
  });

  it('does not try to renew the session when the sign-in itself answers 401', async () => {
    const fetchMock = fakeApi({ 'POST api/login': { status: 401, body: { message: MESSAGES.invalidCredentials } } });
    const failure = api.post('api/login', { action: 'add', body: {}, skipSessionRenewal: true });
    await expect(failure).rejects.toMatchObject({ status: 401, message: MESSAGES.invalidCredentials });
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('reports an unreachable server as an unidentified error', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await expect(api.get('dash/', { action: 'list' })).rejects.toMatchObject({
      status: 0,
      message: MESSAGES.unknownError,
      code: ERROR_CODES.networkError,
    });
    expect(log).toHaveBeenCalledWith(MESSAGES.unknownError, expect.anything());
  });
});
