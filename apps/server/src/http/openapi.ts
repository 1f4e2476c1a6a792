import type { SwaggerOptions } from '@fastify/swagger';
import { errorShape } from '@reformes/domain';
import type { RouteOptions } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Access } from './guard.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route that answers a file, not JSON: its content type, for the OpenAPI description. */
    fileAnswer?: string;
    /** A route that answers no JSON body (a redirect, an empty 200): what the OpenAPI description says of it. */
    bodilessAnswer?: { status: number; description: string };
  }
}

type JsonSchema = Record<string, unknown>;
type RouteSchema = Record<string, unknown> & { response?: Record<string, unknown>; summary?: string };

const zodToOpenApi = createJsonSchemaTransform({});
const ERROR_SCHEMA = z.toJSONSchema(errorShape, { target: 'openapi-3.0' }) as JsonSchema;

/** `GET /api/v1/reformes/:id/state/:state` -> `getReformesByIdStateByState`: unique, stable, readable. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v1/, '')
    .split('/')
    .filter(Boolean)
    // `reformes/-search` and `reformes-search` are two routes: a segment's leading dash is kept as a word.
    .flatMap((segment) => (segment.startsWith(':') ? ['by', segment.slice(1)] : segment.replace(/^-/, 'dash-').split(/[^a-zA-Z0-9]+/)))
    .filter(Boolean);
  const capitalized = words.map((word) => word[0].toUpperCase() + word.slice(1));
  return method.toLowerCase() + capitalized.join('');
}

/** Who may call it: nobody signed in (an empty requirement), or a bearer token. */
const securityOf = (access: Access | undefined) => (access === 'public' ? [] : [{ bearer: [] }]);

const error = (description: string) => ({ description, content: { 'application/json': { schema: ERROR_SCHEMA } } });

/** The refusals the guard and the validation give, by what the route demands and takes. */
function refusalsOf(access: Access | undefined, schema: RouteSchema): Record<string, unknown> {
  const refusals: Record<string, unknown> = {};
  if (schema.body || schema.querystring || schema.params) refusals['422'] = error('Données invalides (`errorsList` par champ)');
  if (access !== 'public') refusals['401'] = error('Session absente ou expirée');
  if (access && access !== 'public') refusals['403'] = error('Droit manquant');
  if (schema.params) refusals['404'] = error('Élément introuvable (ou hors de votre périmètre)');
  refusals['429'] = error('Trop de requêtes');
  return refusals;
}

/**
 * The OpenAPI description (issue 30): every operation with an operationId, a summary, its security requirement
 * (the bearer scheme, or explicitly none for public routes), its refusals, and file answers as binary with their
 * content type; zod shapes registered with an id (the recursive menu tree) become components.
 */
export function openApiOptions(): SwaggerOptions {
  return {
    openapi: {
      info: {
        title: 'Réformes API',
        version: '1.0.0',
        description: "Suivi des réformes de l'administration : saisie, transmission, validation, publication et suivi.",
      },
      servers: [{ url: '/', description: 'Ce serveur' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: (input) => {
      const { schema, url } = zodToOpenApi(input as Parameters<typeof zodToOpenApi>[0]) as { schema: RouteSchema; url: string };
      const route = input.route as RouteOptions;
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      const access = route.config?.access;
      const answers: Record<string, unknown> = { ...refusalsOf(access, schema), ...(schema.response ?? {}) };
      const file = route.config?.fileAnswer;
      if (file) {
        answers['200'] = { description: 'Le fichier', content: { [file]: { schema: { type: 'string', format: 'binary' } } } };
      }
      const bodiless = route.config?.bodilessAnswer;
      if (bodiless) {
        answers[String(bodiless.status)] =
          bodiless.status === 303
            ? { description: bodiless.description, headers: { Location: { type: 'string', format: 'uri' } } }
            : { description: bodiless.description };
      }
      return {
        url,
        schema: {
          ...schema,
          operationId: operationIdOf(method, route.url),
          // Every route of the table has its French summary (RouteSpec.summary is required).
          summary: schema.summary ?? `${method} ${route.url}`,
          security: securityOf(access),
          response: answers,
        },
      };
    },
    transformObject: jsonSchemaTransformObject,
  };
}
