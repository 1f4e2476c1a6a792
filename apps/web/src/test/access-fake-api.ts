import { vi } from 'vitest';
import { storeSignIn } from '../session/session.ts';
import { aUser } from './render-app.tsx';

/** A call the fake API received. */
export interface FakeCall {
  method: string;
  /** After /api/v1/, without the query. */
  path: string;
  query: URLSearchParams;
  body: unknown;
}

export type FakeHandler = (call: FakeCall) => { status?: number; body: unknown };

/**
 * Replaces fetch: `handlers` maps "METHOD path" to an answer built from the call (its query
 * tells a paged list from a whole one). Returns the calls received, in order.
 */
export function fakeAccessApi(handlers: Record<string, FakeHandler>): FakeCall[] {
  const calls: FakeCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const call: FakeCall = {
        method: init.method ?? 'GET',
        path: url.pathname.replace(/^\/api\/v1\//, ''),
        query: url.searchParams,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      };
      calls.push(call);
      const handler = handlers[`${call.method} ${call.path}`];
      const { status = 200, body } = handler ? handler(call) : { status: 404, body: { message: 'introuvable' } };
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return calls;
}

/** `{message, data}` */
export const answer = (data: unknown, message = 'ok') => ({ body: { message, data } });

/** Every right of these features (`roles.list`, `roles.add`...). */
export function rightsOf(...features: string[]): string[] {
  return features.flatMap((feature) => ['list', 'show', 'add', 'edit', 'delete', 'status'].map((action) => `${feature}.${action}`));
}

/** Signs in as an admin holding `features`. */
export function signInWith(features: string[]): void {
  storeSignIn({ access_token: 'a', refresh_token: 'r', expire_in: 900, features, user: aUser() });
}

/** The body of the last call to "METHOD path". */
export function lastBody(calls: FakeCall[], method: string, path: string): unknown {
  return calls.filter((call) => call.method === method && call.path === path).at(-1)?.body;
}
