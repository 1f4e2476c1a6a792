import { JOBS_MESSAGES, JOBS_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pagedList } from '../../http/envelope.ts';
import { routeTable } from '../../http/route-table.ts';
import type { JobsService } from './jobs.service.ts';

/** Failed and waiting mails and jobs (issue 31): the handlers of JOBS_ROUTES (packages/domain/src/routes/jobs.ts). */
export const jobsRoutes: FastifyPluginAsyncZod<{ jobs: JobsService }> = async (app, { jobs }) => {
  const on = routeTable(app);
  on(ROUTES.list, async (request) => pagedList(await jobs.list(request.query)));
  on(ROUTES.retry, async (request) => {
    await jobs.retry(request.params.id);
    return { message: JOBS_MESSAGES.retried };
  });
};
