import { AUDIT_ROUTES, FILES_ROUTES, USERS_ROUTES } from '@reformes/domain';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { fakeApi } from '../test/fake-api.ts';
import { signInAs } from '../test/render-app.tsx';
import { call, callBlob } from './call.ts';

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

  it('sends a form as multipart to a route without a JSON body', async () => {
    signInAs();
    const fetchMock = fakeApi({ 'POST files': { body: { message: 'ok', data: {} } } });
    const form = new FormData();
    form.set('name_file', 'Décret');
    await call(FILES_ROUTES.upload, { form });
    expect(fetchMock.calls[0].body).toBe(form);
    expect(new Headers(fetchMock.calls[0].init.headers).get('Content-Type')).toBeNull();
  });

  it('reads the file a route answers, with its query', async () => {
    signInAs();
    const fetchMock = fakeApi({ 'GET audit-logs/export.csv': { body: 'csv' } });
    const blob = await callBlob(AUDIT_ROUTES.export, { query: { tz: 'Europe/Paris', result: 'failure' } });
    expect(await blob.text()).toBe('"csv"');
    expect(fetchMock.calls[0].query.toString()).toBe('tz=Europe%2FParis&result=failure');
  });

  it('makes a wrong parameter, a missing body or a wrong answer field a type error', () => {
    // Compile-time checks (tsc runs over the tests): never executed.
    const checks = () => {
      // @ts-expect-error the route takes `id`, not `user_id`
      void call(USERS_ROUTES.show, { params: { user_id: 1 } });
      // @ts-expect-error the route takes a body
      void call(USERS_ROUTES.resetPassword, {});
      // @ts-expect-error a route with a JSON body takes no form
      void call(USERS_ROUTES.resetPassword, { body: { id: 1, email: '', password: '', password_confirmation: '' }, form: new FormData() });
      // @ts-expect-error a JSON route answers no file
      void callBlob(USERS_ROUTES.show, { params: { id: 1 } });
      void call(USERS_ROUTES.show, { params: { id: 1 } }).then((answer) => {
        // @ts-expect-error a user has no `mail` field
        void answer.data.mail;
      });
    };
    expect(typeof checks).toBe('function');
  });
});
