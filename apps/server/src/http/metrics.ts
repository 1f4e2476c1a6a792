import { createHash, timingSafeEqual } from 'node:crypto';
import { ERROR_CODES, MESSAGES } from '@reformes/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { isLoopbackHost } from '../config.ts';
import { AppError } from './app-error.ts';
import { ANSWERS_UNDER_PRESSURE } from './pressure.ts';
import { addGauge, addHistogram, MetricsRegistry, PROMETHEUS_CONTENT_TYPE, processRegistry } from './prometheus.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The figures served at /metrics: add yours with `addGauge(app.metrics, …)` (http/prometheus.ts). */
    metrics: MetricsRegistry;
  }
}

export const METRICS_PATH = '/metrics';

const TOKEN_REFUSED = 'Jeton des métriques absent ou invalide.';

/** Headers a reverse proxy adds: their presence means the socket's peer is a proxy, not the client. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Equal-length digests, so the comparison takes the same time whatever the token sent and however much of it is right. */
function holdsToken(request: FastifyRequest, token: string): boolean {
  const sent = /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
}

/** The TCP peer is this machine and no proxy stands between: not `request.ip`, which TRUST_PROXY takes from a header. */
function isLocalClient(request: FastifyRequest): boolean {
  const peer = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  return isLoopbackHost(peer) && FORWARDING_HEADERS.every((header) => request.headers[header] === undefined);
}

/**
 * Prometheus figures at /metrics, outside the API base (no session, not in the OpenAPI document, answered under
 * pressure: a saturated server is when they matter): request durations by route pattern, the database pool, the
 * process (`processRegistry`: CPU, memory, event loop), and whatever `addGauge` adds. Registered from here rather than from a
 * route table: it is an operations endpoint, not part of the API the web app calls.
 *
 * With METRICS_TOKEN, only its bearer gets them, from anywhere. Without it, only this machine does (a Prometheus agent
 * or `curl` on the host) and everyone else gets the 404 of an unknown address: the figures name every route and show
 * the load, so they are not left open by default, and a deployment that scrapes from elsewhere must choose a token.
 * "This machine" is the socket's peer with no forwarding header: a reverse proxy on the host makes every request
 * come from 127.0.0.1, and the X-Forwarded-For it adds is what tells those apart (a proxy that adds none, or a
 * container network where the scraper's address is not loopback, needs the token). With TRUST_PROXY or a HOST that is
 * not loopback the token is required (config.ts refuses to start without it, issue 40).
 */
export function registerMetrics(
  app: FastifyInstance,
  { pool, token }: { pool: Pick<pg.Pool, 'totalCount' | 'idleCount' | 'waitingCount'>; token?: string },
) {
  const registry = new MetricsRegistry();
  app.decorate('metrics', registry);

  const durations = addHistogram(registry, {
    name: 'http_request_duration_seconds',
    help: 'Durée des réponses HTTP, par méthode, route (son motif, jamais l’URL) et statut',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // An unknown address is counted once, not once per URL tried (scanners would make a series each).
    const route = request.routeOptions.url ?? 'unmatched';
    durations.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    done();
  });

  addGauge(registry, {
    name: 'db_pool_total_clients',
    help: 'Connexions ouvertes du pool PostgreSQL',
    collect: () => pool.totalCount,
  });
  addGauge(registry, { name: 'db_pool_idle_clients', help: 'Connexions libres du pool PostgreSQL', collect: () => pool.idleCount });
  addGauge(registry, {
    name: 'db_pool_waiting_clients',
    help: 'Requêtes en attente d’une connexion du pool PostgreSQL',
    collect: () => pool.waitingCount,
  });

  app.get(METRICS_PATH, { schema: { hide: true }, config: ANSWERS_UNDER_PRESSURE }, async (request, reply) => {
    if (token === undefined && !isLocalClient(request))
      throw new AppError(404, MESSAGES.routeNotFound, undefined, undefined, ERROR_CODES.routeNotFound);
    if (token !== undefined && !holdsToken(request, token)) throw new AppError(401, TOKEN_REFUSED);
    reply.header('cache-control', 'no-store').type(PROMETHEUS_CONTENT_TYPE);
    return MetricsRegistry.render([processRegistry(), registry]);
  });
}
