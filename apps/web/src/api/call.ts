import { type AnswerOf, actionOf, type BodyOf, type ParamsOf, pathOf, type QueryOf, type RouteSpec } from '@reformes/domain';
import { apiBlob, apiRequest, type RequestOptions } from './client.ts';

/**
 * What a call sends: the route's parameters, query and body, each required exactly when the route takes it; a route
 * without a JSON body (a multipart upload) may take a `form`, with its upload progress.
 */
export type CallInput<R extends RouteSpec> = (R['params'] extends object ? { params: ParamsOf<R> } : { params?: never }) &
  (R['querystring'] extends object ? { query?: QueryOf<R> } : { query?: never }) &
  (R['body'] extends object ? { body: BodyOf<R>; form?: never } : { body?: never; form?: FormData }) &
  Pick<RequestOptions, 'signal' | 'onUploadProgress' | 'skipSessionRenewal'>;

/** A route that answers a file rather than JSON (`file` in its spec). */
export type FileRoute = RouteSpec & { file: string };

function requestOf<R extends RouteSpec>(spec: R, input: CallInput<R>): [string, RequestOptions] {
  const { params, query, body, form, ...options } = input as CallInput<RouteSpec> & {
    params?: Record<string, string | number>;
    query?: RequestOptions['query'];
  };
  return [pathOf(spec.path, params), { ...options, action: actionOf(spec), body: form ?? body, query }];
}

/**
 * Calls a route of the domain's table (packages/domain/src/routes): its method, path, X-Action and answer type come
 * from the table the server registers, so a wrong path, parameter, body or answer is a type error here.
 * `call(USERS_ROUTES.resetPassword, { body: input })`.
 */
export function call<R extends RouteSpec>(spec: R, input: CallInput<R>): Promise<AnswerOf<R>> {
  return apiRequest<AnswerOf<R>>(spec.method, ...requestOf(spec, input));
}

/** Reads the file a route answers (`callBlob(FILES_ROUTES.show, { params: { id } })`), with the bearer token. */
export function callBlob<R extends FileRoute>(spec: R, input: CallInput<R>): Promise<Blob> {
  return apiBlob(...requestOf(spec, input));
}
