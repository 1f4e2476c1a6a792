import type { RouteSpec } from '@reformes/domain';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';

type ServerOf<S> = S extends z.ZodType ? z.output<S> : undefined;
type AnswerOut<R extends RouteSpec> = R['answer'] extends z.ZodType ? z.output<R['answer']> : unknown;

/** A handler typed by its route: parameters, query and body as validated, the answer as its shape serialises it. */
export type RouteHandler<R extends RouteSpec> = (
  request: FastifyRequest<{ Params: ServerOf<R['params']>; Querystring: ServerOf<R['querystring']>; Body: ServerOf<R['body']> }>,
  reply: FastifyReply,
) => Promise<AnswerOut<R>>;

type ZodApp = FastifyInstance<RawServerDefault, never, never, never, ZodTypeProvider> | FastifyInstance;

/** What a route adds to its table entry on the server: a larger body, more route config. */
export interface RouteExtras {
  bodyLimit?: number;
  config?: Omit<FastifyContextConfig, 'access'>;
}

/**
 * Registers a route of the domain's table (packages/domain/src/routes) with its handler: the method, path, access,
 * schemas and OpenAPI summary all come from the table, so the server cannot answer another shape than the one the
 * web app is typed against. `on(USERS_ROUTES.show, async (request) => ok(await users.show(request.params.id)))`.
 */
export function routeTable(app: ZodApp) {
  return function on<R extends RouteSpec>(spec: R, handler: RouteHandler<R>, extras: RouteExtras = {}): void {
    const schema: Record<string, unknown> = { tags: [...spec.tags], summary: spec.summary };
    if (spec.params) schema.params = spec.params;
    if (spec.querystring) schema.querystring = spec.querystring;
    if (spec.body) schema.body = spec.body;
    if (spec.answer) schema.response = { [spec.status ?? 200]: spec.answer };
    const config = {
      ...extras.config,
      access: spec.access,
      ...(spec.file ? { fileAnswer: spec.file } : {}),
      ...(spec.bodiless ? { bodilessAnswer: spec.bodiless } : {}),
    };
    (app as FastifyInstance).route({
      method: spec.method,
      url: spec.path,
      schema,
      config,
      ...(extras.bodyLimit ? { bodyLimit: extras.bodyLimit } : {}),
      handler: async (request, reply) => {
        if (spec.status) reply.status(spec.status);
        return handler(request as never, reply);
      },
    });
  };
}
