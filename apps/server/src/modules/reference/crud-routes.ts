import { MESSAGES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { deleted, listEnvelope, ok, toggled } from '../../http/envelope.ts';
import { searchPageOf } from '../../http/pagination.ts';
import { routeTable } from '../../http/route-table.ts';
import type { CrudService, CrudTable } from './crud-service.ts';

/** Registers the routes of one reference list (its table: packages/domain/src/routes/reference.ts) on its service. */
export function crudRoutes<TTable extends CrudTable, TSchema extends z.ZodObject>(
  service: CrudService<TTable, TSchema>,
): FastifyPluginAsyncZod {
  const ROUTES = service.resource.routes;

  return async (app) => {
    const on = routeTable(app);
    on(ROUTES.list, async (request) => listEnvelope(await service.list(request.query)));
    on(ROUTES.search, async (request) =>
      listEnvelope(await service.search(request.body.search, searchPageOf(request.query, request.body))),
    );
    on(ROUTES.show, async (request) => ok(await service.findOne(request.params.id), MESSAGES.found));
    on(ROUTES.create, async (request) => ok(await service.create(request.body as Record<string, unknown>), MESSAGES.created));
    on(ROUTES.update, async (request) => ok(await service.update(request.params.id, request.body as z.infer<TSchema>), MESSAGES.updated));
    on(ROUTES.remove, (request) => deleted(service.remove(request.params.id)));
    on(ROUTES.setState, (request) => toggled(request.params.state, (isActive) => service.setActive(request.params.id, isActive)));
  };
}
