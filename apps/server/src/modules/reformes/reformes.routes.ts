import { MESSAGES, REFORME_MESSAGES, REFORMES_ROUTES as ROUTES, reformeSchemaFor } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleted, listEnvelope, ok, toggled } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { searchPageOf } from '../../http/pagination.ts';
import { routeTable } from '../../http/route-table.ts';
import { parseOrInvalid } from '../../http/validation.ts';
import type { ReformesService } from './reformes.service.ts';
import type { WorkflowService } from './workflow.service.ts';

/** The handlers of REFORMES_ROUTES (packages/domain/src/routes/reformes.ts). */
export const reformesRoutes: FastifyPluginAsyncZod<{ reformes: ReformesService; workflow: WorkflowService }> = async (
  app,
  { reformes, workflow },
) => {
  const on = routeTable(app);
  on(ROUTES.list, async (request) => {
    const { per_page, page, ...filters } = request.query;
    return listEnvelope(await reformes.list(authOf(request), filters, { per_page, page }));
  });
  on(ROUTES.myList, async (request) => {
    const { per_page, page, ...filters } = request.query;
    return listEnvelope(await reformes.myList(authOf(request), filters, { per_page, page }));
  });
  on(ROUTES.byRole, async (request) => {
    const { per_page, page, ...filters } = request.query;
    return listEnvelope(await reformes.byRole(authOf(request), filters, { per_page, page }));
  });
  for (const spec of [ROUTES.search, ROUTES.searchLegacy]) {
    on(spec, async (request) =>
      listEnvelope(await reformes.search(authOf(request), request.body.search, searchPageOf(request.query, request.body))),
    );
  }

  on(ROUTES.detail, async (request) => ok(await reformes.detail(authOf(request), request.params.id), MESSAGES.found));

  // The body's rules depend on the caller's role (saisie central gives the structure): checked here.
  on(ROUTES.create, async (request) => {
    const auth = authOf(request);
    return ok(await reformes.create(auth, parseOrInvalid(reformeSchemaFor(auth.role), request.body)), REFORME_MESSAGES.created);
  });
  on(ROUTES.update, async (request) => {
    const auth = authOf(request);
    return ok(
      await reformes.update(auth, request.params.id, parseOrInvalid(reformeSchemaFor(auth.role), request.body)),
      REFORME_MESSAGES.updated,
    );
  });
  on(ROUTES.remove, (request) => deleted(reformes.remove(authOf(request), request.params.id)));
  on(ROUTES.setState, (request) =>
    toggled(request.params.state, (isActive) => reformes.setActive(authOf(request), request.params.id, isActive)),
  );

  on(ROUTES.publish, async (request) => {
    const message = await workflow.apply(authOf(request), request.params.id, 'publish');
    return ok(await reformes.detail(authOf(request), request.params.id), message);
  });
  on(ROUTES.unpublish, async (request) => {
    const message = await workflow.apply(authOf(request), request.params.id, 'unpublish');
    return ok(await reformes.detail(authOf(request), request.params.id), message);
  });

  on(ROUTES.affectation, async (request) => {
    const { reforme_id, sens, instruction } = request.body;
    const message = await workflow.apply(authOf(request), reforme_id, sens === -1 ? 'transmit' : 'return', instruction);
    return ok(await reformes.detail(authOf(request), reforme_id), message);
  });
};
