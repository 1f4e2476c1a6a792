import { ERROR_CODES, MESSAGES, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../test/test-app.ts';

/** Issue 41: every refusal carries a `code` of ERROR_CODES beside its French message; the web decides by the code. */
describe('the code of the error answers', () => {
  let t: TestApp;
  let admin: Caller;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('admin');
  });
  afterAll(() => t.close());

  it('tells an unknown route (ROUTE_NOT_FOUND) from a missing element (NOT_FOUND)', async () => {
    const route = await t.app.inject({ method: 'GET', url: '/api/v1/no-such-route' });
    expect(route.statusCode).toBe(404);
    expect(route.json()).toEqual({ message: MESSAGES.routeNotFound, code: ERROR_CODES.routeNotFound });
    const element = await admin.get('users/999999');
    expect(element.statusCode).toBe(404);
    expect(element.json().code).toBe(ERROR_CODES.notFound);
  });

  it('answers INVALID_INPUT with the fields at fault on a body the schema refuses (422)', async () => {
    const response = await t.anonymous.post('api/login', { email: 'pas-une-adresse', password: '', device: 'web' });
    expect(response.statusCode).toBe(422);
    expect(response.json().code).toBe(ERROR_CODES.invalidInput);
    expect(Object.keys(response.json().errorsList ?? {})).not.toHaveLength(0);
  });

  it('answers UNAUTHENTICATED without a session (401)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/users' });
    expect(response.statusCode).toBe(401);
    expect(response.json().code).toBe(ERROR_CODES.unauthenticated);
  });

  it('answers TWO_FACTOR_CHALLENGE_EXPIRED on a sign-in code whose challenge does not hold', async () => {
    // A challenge past its time, with a signature of the client's making: refused like an expired one.
    const body = Buffer.from(JSON.stringify({ sub: 1, exp: Date.now() - 1000, n: '00' })).toString('base64url');
    const response = await t.anonymous.post('api/login/2fa', { challenge_token: `${body}.AAAA`, code: '123456' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ message: TWO_FACTOR_MESSAGES.challengeExpired, code: ERROR_CODES.twoFactorChallengeExpired });
  });
});
