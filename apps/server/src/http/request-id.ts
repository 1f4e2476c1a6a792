import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions, RawRequestDefaultExpression } from 'fastify';
import type { Config } from '../config.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/** What a proxy or a client may name its request with: short, and nothing a log line or a header could choke on. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * Whether the socket's peer is a proxy TRUST_PROXY trusts, as Fastify decides it for the nearest hop (hop 0), with the
 * same library (proxy-addr): `true` trusts every peer, a number of hops at least one, a list its addresses, ranges
 * and keywords.
 */
export function trustedPeerCheck(trustProxy: Config['trustProxy']): (address: string | undefined) => boolean {
  if (typeof trustProxy === 'boolean') return () => trustProxy;
  const trusts = typeof trustProxy === 'function' ? trustProxy : proxyAddr.compile(trustProxy);
  return (address) => address !== undefined && isIP(address) !== 0 && trusts(address, 0);
}

function saneIdOf(request: RawRequestDefaultExpression): string | undefined {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : undefined;
}

/**
 * Fastify's `genReqId` and `childLoggerFactory`: the request's id (`request.id`, the `reqId` of every log line) is the
 * `x-request-id` of a trusted proxy when sane (its logs then meet ours), else a fresh UUID. Any client could choose
 * its own id and make its lines pass for another request's, so a sane id from any other peer is only logged beside
 * ours, as `clientRequestId`.
 */
export function requestIdOptions(trustProxy: Config['trustProxy']) {
  const isTrustedPeer = trustedPeerCheck(trustProxy);
  const fromTrustedPeer = (request: RawRequestDefaultExpression) => isTrustedPeer(request.socket?.remoteAddress);
  return {
    requestIdHeader: false,
    genReqId: (request: RawRequestDefaultExpression) => {
      const sent = saneIdOf(request);
      return sent !== undefined && fromTrustedPeer(request) ? sent : randomUUID();
    },
    childLoggerFactory: (
      logger: FastifyBaseLogger,
      bindings: Record<string, unknown>,
      options: object,
      request: RawRequestDefaultExpression,
    ) => {
      const sent = saneIdOf(request);
      const clientRequestId = sent !== undefined && !fromTrustedPeer(request) ? sent : undefined;
      return logger.child(clientRequestId === undefined ? bindings : { ...bindings, clientRequestId }, options);
    },
  } satisfies Pick<FastifyServerOptions, 'requestIdHeader' | 'genReqId' | 'childLoggerFactory'>;
}

/** Every answer, errors included, says which request it answers, so a user's report finds its log lines. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done(null, payload);
  });
}
