import type { Shape } from '@reformes/domain';
import { vi } from 'vitest';
import type { z } from 'zod';

/** A call the fake API received. */
export interface FakeCall {
  method: string;
  /** After /api/v1/, without the query. */
  path: string;
  query: URLSearchParams;
  /** The JSON body, parsed; a FormData body is kept as is. */
  body: unknown;
  init: RequestInit;
}

export interface FakeAnswer {
  status?: number;
  body: unknown;
}

/** An answer, or a function of the call (its query tells a paged list from a whole one). */
export type FakeRoute = FakeAnswer | ((call: FakeCall) => FakeAnswer);

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function callOf(input: RequestInfo | URL, init: RequestInit): FakeCall {
  const url = new URL(String(input), 'http://localhost');
  const isJson = typeof init.body === 'string';
  return {
    method: init.method ?? 'GET',
    path: url.pathname.replace(/^\/api\/v1\//, ''),
    query: url.searchParams,
    body: isJson ? JSON.parse(init.body as string) : init.body,
    init,
  };
}

/**
 * The one fake server of the component tests: replaces fetch, answers "METHOD path" (path after /api/v1/)
 * from `routes`, 404 otherwise. Returns the fetch mock, with the calls it received, in order.
 */
export function fakeApi(routes: Record<string, FakeRoute>) {
  const calls: FakeCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const call = callOf(input, init);
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    if (!route) return json(404, { message: 'introuvable' });
    const { status = 200, body } = typeof route === 'function' ? route(call) : route;
    return json(status, body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return Object.assign(fetchMock, { calls });
}

/** The body of the last call to "METHOD path". */
export function lastBody(calls: FakeCall[], method: string, path: string): unknown {
  return calls.filter((call) => call.method === method && call.path === path).at(-1)?.body;
}

/**
 * `{message, data}`, checked against the API's own response shape: a fake answer cannot drift from what
 * the server declares (a missing or mistyped field fails the test here, not in a confusing render).
 */
export function shaped<S extends z.ZodType>(shape: S, data: Shape<S>, message = 'ok'): FakeAnswer {
  shape.parse(data);
  return { body: { message, data } };
}

/** `{message, data}`, for the answers whose shape the test does not need to check. */
export const answer = (data: unknown, message = 'ok'): FakeAnswer => ({ body: { message, data } });

/** A paged answer `{message, isPaginate: true, data: {data, current_page, per_page, total, last_page}}`. */
export function pagedAnswer<Row>(rows: Row[], page: number, perPage: number) {
  return {
    message: 'ok',
    isPaginate: true as const,
    data: {
      data: rows.slice((page - 1) * perPage, page * perPage),
      current_page: page,
      per_page: perPage,
      total: rows.length,
      last_page: Math.max(1, Math.ceil(rows.length / perPage)),
    },
  };
}

/** Answers a paged list from `rows`, with the page and size the screen asked for. */
export const pagedFrom =
  <Row>(rows: Row[]) =>
  ({ query }: FakeCall): FakeAnswer => ({ body: pagedAnswer(rows, Number(query.get('page') ?? 1), Number(query.get('per_page') ?? 10)) });
