import { randomUUID } from 'node:crypto';
import type { FastifyInstance, RawRequestDefaultExpression } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy or a client may name its request with: short, and nothing a log line or a header could choke on. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * Fastify's `genReqId`: the caller's `x-request-id` when it is sane (a proxy's id then ties its logs to ours), else a
 * fresh UUID. It becomes `request.id`, the `reqId` of every log line of the request.
 */
export function requestIdOf(request: RawRequestDefaultExpression): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** Every answer, errors included, says which request it answers, so a user's report finds its log lines. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
}
