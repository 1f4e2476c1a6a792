import type { z } from 'zod';
import type { Action, FeatureName } from '../permissions.ts';

/** A right: a role of the caller must hold this active permission. */
export type Grant = { feature: FeatureName; action: Action };

/**
 * What a route demands:
 * - a feature and an action (a right), or `anyOf` several (one is enough to enter, the handler checks which);
 * - 'signed-in': any valid session; 'first-password': even while a temporary password must be changed;
 * - 'two-factor-setup': even while the role demands a second factor not yet enrolled (issue 18);
 * - 'public': no session at all.
 */
export type RouteAccess = Grant | { anyOf: Grant[] } | 'signed-in' | 'first-password' | 'two-factor-setup' | 'public';

/**
 * One route of the API (issue 30), the single source of its method, path, access and shapes: the server registers
 * it from this (validation, answer serialisation, OpenAPI), the web app calls it through this, so a wrong path,
 * parameter, body or answer type is a compile error on either side.
 */
export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under the API base (`/api/v1`), with `:name` parameters. */
  path: `/${string}`;
  access: RouteAccess;
  /** The French summary of the OpenAPI document. */
  summary: string;
  tags: readonly string[];
  params?: z.ZodType;
  querystring?: z.ZodType;
  /** A JSON body; multipart uploads have none here (their fields are read from the stream). */
  body?: z.ZodType;
  /** The JSON answer on success; absent when the route answers a file (`file`). */
  answer?: z.ZodType;
  /** The content type of a file answer (CSV, xlsx, PDF…). */
  file?: string;
  /** 201 for a creation; 200 otherwise. */
  status?: 200 | 201;
  /** An answer without a JSON body, described for the OpenAPI document: a 303 to another site, or an empty 200. */
  bodiless?: { status: 200 | 303; description: string };
}

/** Keeps a route's literal types (its path, its shapes), checked against `RouteSpec`. */
export const route = <const R extends RouteSpec>(spec: R): R => spec;

/** The routes of one feature, each with the feature's tags. */
export function routesOf<const T extends Record<string, Omit<RouteSpec, 'tags'>>>(
  tags: readonly string[],
  routes: T,
): { [K in keyof T]: T[K] & { tags: readonly string[] } } {
  return Object.fromEntries(Object.entries(routes).map(([name, spec]) => [name, { ...spec, tags }])) as never;
}

/** The wire types of a route: what the client sends and receives (`z.input`: dates as ISO strings). */
type WireOf<S> = S extends z.ZodType ? z.input<S> : never;
export type ParamsOf<R extends RouteSpec> = WireOf<R['params']>;
export type QueryOf<R extends RouteSpec> = WireOf<R['querystring']>;
export type BodyOf<R extends RouteSpec> = WireOf<R['body']>;
export type AnswerOf<R extends RouteSpec> = WireOf<R['answer']>;

/** `pathOf('/users/:id', {id: 3})` is `/users/3`; a missing parameter is an error, not "undefined" in a URL. */
export function pathOf(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`paramètre ${name} manquant pour ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** The action a call declares in its X-Action header (spec §6): its right's, else what the method does. */
export function actionOf(spec: Pick<RouteSpec, 'access' | 'method'>): Action {
  const { access } = spec;
  if (typeof access === 'object') return 'anyOf' in access ? (access.anyOf[0]?.action ?? 'show') : access.action;
  return spec.method === 'GET'
    ? 'show'
    : spec.method === 'DELETE'
      ? 'delete'
      : spec.method === 'PUT' || spec.method === 'PATCH'
        ? 'edit'
        : 'add';
}
