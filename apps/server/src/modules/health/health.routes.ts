import { healthAnswer, MESSAGES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { ANSWERS_UNDER_PRESSURE } from '../../http/pressure.ts';
import type { HealthService } from './health.service.ts';

export const healthRoutes: FastifyPluginAsyncZod<{ health: HealthService }> = async (app, { health }) => {
  // Liveness: the process answers. It never touches the pool, so a saturated pool (or a slow database) does
  // not make a supervisor restart a server that is merely busy.
  app.get(
    '/health',
    {
      config: { access: 'public', ...ANSWERS_UNDER_PRESSURE },
      schema: { tags: ['Service'], summary: 'Vivacité du service (sans accès à la base)', response: { 200: healthAnswer } },
    },
    async () => ok({ status: 'ok', database: health.kind }, MESSAGES.healthy),
  );

  // Readiness: the database answers within a short delay. For load balancers and start-up scripts.
  app.get(
    '/health/ready',
    {
      config: { access: 'public', ...ANSWERS_UNDER_PRESSURE },
      schema: { tags: ['Service'], summary: 'Disponibilité du service (base de données comprise)', response: { 200: healthAnswer } },
    },
    async (request) => {
      try {
        await health.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'base de données indisponible');
        throw new AppError(503, 'Base de données indisponible.');
      }
      return ok({ status: 'ok', database: health.kind }, MESSAGES.healthy);
    },
  );
};
