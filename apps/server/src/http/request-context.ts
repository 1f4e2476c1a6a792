import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

const requests = new AsyncLocalStorage<FastifyRequest>();

/** The request whose handler is running, if any (none in a command-line tool or a test calling a service). */
export function currentRequest(): FastifyRequest | undefined {
  return requests.getStore();
}

/**
 * The request being served, for what runs deep inside its handler without taking it as a parameter: an audit entry's
 * caller and IP address (modules/audit), the worker's nudge after a request that queued a job (jobs/queue.ts). HTTP
 * infrastructure with no module knowledge, so it sits in http/ (issue 41).
 *
 * Runs every handler inside its request's context (what @fastify/request-context does), so that a service
 * recording an audit entry deep inside its transaction knows the caller and its IP address without every
 * service method taking the request as a parameter. A `preHandler` hook: the body is parsed by then, and the
 * handler is called from within `done`.
 */
export const requestContext = fp(async (app) => {
  app.addHook('preHandler', (request, _reply, done) => requests.run(request, done));
});
