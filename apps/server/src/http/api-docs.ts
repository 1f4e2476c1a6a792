import type { FastifyInstance } from 'fastify';

/**
 * The OpenAPI description and Swagger UI at /api/docs (config.apiDocs), their packages imported only then: with
 * zod's JSON Schema conversion and the YAML writer they hold 1.5-2 MB that a production server without docs need
 * not carry (issue 33). Registered before the routes, whose schemas the description collects as they are added.
 */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  const [{ default: swagger }, { default: swaggerUi }, { openApiOptions }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
    import('./openapi.ts'),
  ]);
  await app.register(swagger, openApiOptions());
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
}
