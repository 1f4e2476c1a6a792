import { TIMELINE_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { pagedList } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { routeTable } from '../../http/route-table.ts';
import type { TimelineService } from './timeline.service.ts';

/** The handler of TIMELINE_ROUTES (packages/domain/src/routes/timeline.ts): a reform's history, paged. */
export const timelineRoutes: FastifyPluginAsyncZod<{ timeline: TimelineService }> = async (app, { timeline }) => {
  routeTable(app)(ROUTES.history, async (request) => pagedList(await timeline.page(authOf(request), request.params.id, request.query)));
};
