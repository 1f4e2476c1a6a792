import { envelopeShape, MESSAGES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { ANSWERS_UNDER_PRESSURE } from '../../http/pressure.ts';

/** How long readiness waits for the database (a free pool client, then `select 1`) before answering 503. */
export const READY_TIMEOUT_MS = 2_000;

/** `select 1` through the pool, or an error after `timeoutMs` (the query, if queued, still runs later). */
export async function pingDatabase(database: Database, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`pas de réponse de la base en ${timeoutMs} ms`)), timeoutMs);
  });
  const query = database.pool.query('select 1');
  // A late failure after the timeout won: nobody awaits the query any more.
  query.catch(() => undefined);
  try {
    await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** `{status, database}`: the service answers, and on which engine (the embedded cluster or PostgreSQL). */
const healthAnswer = envelopeShape(z.object({ status: z.literal('ok'), database: z.enum(['embedded', 'postgresql']) }));

export const healthRoutes: FastifyPluginAsyncZod<{ database: Database; readyTimeoutMs?: number }> = async (
  app,
  { database, readyTimeoutMs },
) => {
  // Liveness: the process answers. It never touches the pool, so a saturated pool (or a slow database) does
  // not make a supervisor restart a server that is merely busy.
  app.get(
    '/health',
    {
      config: { access: 'public', ...ANSWERS_UNDER_PRESSURE },
      schema: { tags: ['Service'], summary: 'Vivacité du service (sans accès à la base)', response: { 200: healthAnswer } },
    },
    async () => ok({ status: 'ok', database: database.kind }, MESSAGES.healthy),
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
        await pingDatabase(database, readyTimeoutMs);
      } catch (error) {
        request.log.warn({ err: error }, 'base de données indisponible');
        throw new AppError(503, 'Base de données indisponible.');
      }
      return ok({ status: 'ok', database: database.kind }, MESSAGES.healthy);
    },
  );
};
