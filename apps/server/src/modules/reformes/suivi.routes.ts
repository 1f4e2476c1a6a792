import { MESSAGES, SUIVI_ROUTES as ROUTES, SUIVI_MESSAGES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleted, listEnvelope, ok, plainList } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { routeTable } from '../../http/route-table.ts';
import type { SuiviService } from './suivi.service.ts';

/** The handlers of SUIVI_ROUTES (packages/domain/src/routes/suivi.ts). */
export const suiviRoutes: FastifyPluginAsyncZod<{ suivi: SuiviService }> = async (app, { suivi }) => {
  const on = routeTable(app);
  on(ROUTES.reformes, async (request) => {
    const { reforme_id, search, ...page } = request.query;
    const auth = authOf(request);
    if (reforme_id) return plainList(await suivi.reformeWithSuivi(auth, reforme_id));
    return listEnvelope(await suivi.page(auth, search, page));
  });
  on(ROUTES.records, async (request) => plainList(await suivi.recordsOf(authOf(request), request.query.result_id)));
  on(ROUTES.show, async (request) => ok(await suivi.record(authOf(request), request.params.id), MESSAGES.found));
  on(ROUTES.create, async (request) => ok(await suivi.create(authOf(request), request.body), SUIVI_MESSAGES.created));
  on(ROUTES.remove, (request) => deleted(suivi.remove(authOf(request), request.params.id)));
};
