import type { FastifyInstance } from 'fastify';

/**
 * Every answer of a route that needs a session (access other than 'public') is `Cache-Control: no-store`, errors
 * included, unless the route set its own (the private downloads say `private, no-store`): what it holds is personal
 * or restricted, and must stay out of browser and proxy caches (ASVS V14.3). Public routes keep their own caching
 * (ETag and 304 on the open-data files); the web app's files have theirs (web-app.ts).
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const access = request.routeOptions.config?.access;
    if (access && access !== 'public' && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
