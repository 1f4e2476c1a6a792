import { APP_VERSION, MESSAGES, HEALTH_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { ANSWERS_UNDER_PRESSURE } from '../../http/pressure.ts';
import { routeTable } from '../../http/route-table.ts';
import type { HealthService } from './health.service.ts';

/** The handlers of HEALTH_ROUTES (packages/domain/src/routes/health.ts); both answer even under pressure. */
export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  const on = routeTable(app);
  // Liveness: the process answers. It never touches the pool, so a saturated pool (or a slow database) does
  // not make a supervisor restart a server that is merely busy.
  on(ROUTES.live, async () => ok({ status: 'ok', database: health.kind, version: APP_VERSION }, MESSAGES.healthy), {
    config: ANSWERS_UNDER_PRESSURE,
  });

  // Readiness: the database answers within a short delay, and no stop has begun (main.ts drains on SIGTERM before
  // closing the listener). For load balancers and start-up scripts.
  on(
    ROUTES.ready,
    async (request, reply) => {
      // Answered, not thrown: a 503 here is the expected answer of a stop, not an error to log at every check.
      if (health.isDraining()) return reply.code(503).send({ message: MESSAGES.draining });
      try {
        await health.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'base de données indisponible');
        throw new AppError(503, 'Base de données indisponible.');
      }
      return ok({ status: 'ok', database: health.kind, version: APP_VERSION }, MESSAGES.healthy);
    },
    { config: ANSWERS_UNDER_PRESSURE },
  );
};
