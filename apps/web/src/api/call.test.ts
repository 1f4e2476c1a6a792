import { USERS_ROUTES } from '@reformes/domain';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { fakeApi } from '../test/fake-api.ts';
import { signInAs } from '../test/render-app.tsx';
import { call } from './call.ts';

describe('call(route): the web side of the typed route table (issue 30)', () => {
  it('fills the path parameters, sends the query and the route action, and answers the typed body', async () => {
    signInAs();
    const fetchMock = fakeApi({ 'GET users/7/state/0': { body: { message: 'Désactivation effectuée avec succès', data: { id: 7 } } } });
    const answer = await call(USERS_ROUTES.setState, { params: { id: 7, state: '0' } });
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/v1/users/7/state/0');
    expect((init as RequestInit).method).toBe('GET');
    expect(new Headers((init as RequestInit).headers).get('X-Action')).toBe('status');
    expect(answer.message).toBe('Désactivation effectuée avec succès');
    expectTypeOf(answer.data.email).toEqualTypeOf<string>();
  });

  it('posts the body as JSON', async () => {
    signInAs();
    const fetchMock = fakeApi({ 'POST reset-password': { body: { message: 'ok' } } });
    const body = { id: 3, email: 'a@reformes.test', password: 'Nouveau-mot-2026', password_confirmation: 'Nouveau-mot-2026' };
    await call(USERS_ROUTES.resetPassword, { body });
    expect(JSON.parse(String((fetchMock.mock.calls[0][1] as RequestInit).body))).toEqual(body);
  });

  it('makes a wrong parameter, a missing body or a wrong answer field a type error', () => {
    // Compile-time checks (tsc runs over the tests): never executed.
    const checks = () => {
      // @ts-expect-error the route takes `id`, not `user_id`
      void call(USERS_ROUTES.show, { params: { user_id: 1 } });
      // @ts-expect-error the route takes a body
      void call(USERS_ROUTES.resetPassword, {});
      void call(USERS_ROUTES.show, { params: { id: 1 } }).then((answer) => {
        // @ts-expect-error a user has no `mail` field
        void answer.data.mail;
      });
    };
    expect(typeof checks).toBe('function');
  });
});
