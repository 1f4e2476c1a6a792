import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../http/guard.ts';
import { createRateLimits } from '../auth/throttles.ts';
import { recordAudit } from './audit.service.ts';

/**
 * Writes a route refused to a signed-in caller into the audit log, at most once a minute per account and route (the
 * count is kept in the database, for every instance), so that a client looping on a forbidden route writes one entry a
 * minute, not thousands. The 403 goes out whatever happens to the entry. app.ts hands it to the guard (http/guard.ts),
 * which knows no module (issue 41).
 */
export function createRefusalAudit(db: Db, log: FastifyBaseLogger) {
  const rateLimits = createRateLimits(db);
  return async (request: FastifyRequest, auth: AuthContext): Promise<void> => {
    const [method, route] = [request.method, request.routeOptions.url ?? request.url];
    try {
      if ((await rateLimits.hit(`audit-denied:${auth.userId}:${method} ${route}`, 1, 60)) !== undefined) return;
      await recordAudit(db, {
        action: 'access.denied',
        result: 'failure',
        actor: { id: auth.userId },
        ip: request.ip,
        details: { method, route },
      });
    } catch (error) {
      log.error({ err: error }, "refus d'accès non journalisé");
    }
  };
}
