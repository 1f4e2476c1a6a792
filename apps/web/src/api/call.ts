import { type AnswerOf, actionOf, type BodyOf, type ParamsOf, pathOf, type QueryOf, type RouteSpec } from '@reformes/domain';
import { apiRequest, type RequestOptions } from './client.ts';

/** What a call sends: the route's parameters, query and body, each required exactly when the route takes it. */
export type CallInput<R extends RouteSpec> = (R['params'] extends object ? { params: ParamsOf<R> } : { params?: never }) &
  (R['querystring'] extends object ? { query?: QueryOf<R> } : { query?: never }) &
  (R['body'] extends object ? { body: BodyOf<R> } : { body?: never }) &
  Pick<RequestOptions, 'signal'>;

/**
 * Calls a route of the domain's table (packages/domain/src/routes): its method, path, X-Action and answer type come
 * from the table the server registers, so a wrong path, parameter, body or answer is a type error here.
 * `call(USERS_ROUTES.resetPassword, { body: input })`.
 */
export function call<R extends RouteSpec>(spec: R, input: CallInput<R>): Promise<AnswerOf<R>> {
  const { params, query, body, signal } = input as {
    params?: Record<string, string | number>;
    query?: object;
    body?: unknown;
    signal?: AbortSignal;
  };
  return apiRequest<AnswerOf<R>>(spec.method, pathOf(spec.path, params), {
    action: actionOf(spec),
    body,
    query: query as RequestOptions['query'],
    signal,
  });
}
