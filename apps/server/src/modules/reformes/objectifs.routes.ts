import { MESSAGES, REFORME_MESSAGES, OBJECTIFS_ROUTES as ROUTES, resultatPayloadSchema } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { forbidden, invalid } from '../../http/app-error.ts';
import { deleted, listEnvelope, ok, plainList, toggled } from '../../http/envelope.ts';
import { authOf, holds } from '../../http/guard.ts';
import { type PageQuery, type SearchBody, searchPageOf } from '../../http/pagination.ts';
import { routeTable } from '../../http/route-table.ts';
import { parseOrInvalid } from '../../http/validation.ts';
import type { ObjectifsService } from './objectifs.service.ts';

/** The filters and the page of a search sent in the body (`POST …-search`), as the list routes take them. */
const bodySearch = ({ query, body }: { query: PageQuery; body: SearchBody }) =>
  [{ search: body.search }, searchPageOf(query, body)] as const;

/** The handlers of OBJECTIFS_ROUTES (packages/domain/src/routes/objectifs.ts): spec §7 `objectifs/` and `resultats/`. */
export const objectifsRoutes: FastifyPluginAsyncZod<{ objectifs: ObjectifsService }> = async (app, { objectifs }) => {
  const on = routeTable(app);
  // A list's query string holds both its filters and its page.
  on(ROUTES.listObjectifs, async (request) => listEnvelope(await objectifs.listObjectifs(authOf(request), request.query, request.query)));
  on(ROUTES.searchObjectifs, async (request) => listEnvelope(await objectifs.listObjectifs(authOf(request), ...bodySearch(request))));
  on(ROUTES.objectifsOfReforme, async (request) => plainList(await objectifs.byReforme(authOf(request), request.params.id)));
  on(ROUTES.showObjectif, async (request) => ok(await objectifs.objectifView(authOf(request), request.params.id), MESSAGES.found));
  on(ROUTES.createObjectif, async (request) =>
    ok(await objectifs.createObjectif(authOf(request), request.body), REFORME_MESSAGES.objectifCreated),
  );
  on(ROUTES.updateObjectif, async (request) =>
    ok(await objectifs.updateObjectif(authOf(request), request.params.id, request.body), MESSAGES.updated),
  );
  on(ROUTES.removeObjectif, (request) => deleted(objectifs.removeObjectif(authOf(request), request.params.id)));
  on(ROUTES.setObjectifState, (request) =>
    toggled(request.params.state, (isActive) => objectifs.setObjectifActive(authOf(request), request.params.id, isActive)),
  );

  on(ROUTES.listResultats, async (request) => listEnvelope(await objectifs.listResultats(authOf(request), request.query, request.query)));
  on(ROUTES.searchResultats, async (request) => listEnvelope(await objectifs.listResultats(authOf(request), ...bodySearch(request))));
  on(ROUTES.showResultat, async (request) => ok(await objectifs.resultatView(authOf(request), request.params.id), MESSAGES.found));
  on(ROUTES.createResultat, async (request) =>
    ok(await objectifs.createResultat(authOf(request), request.body), REFORME_MESSAGES.resultatCreated),
  );

  // Spec §7: validating a result is "an update with {status: 1}" — a right of its own (publication).
  on(ROUTES.updateResultat, async (request) => {
    const auth = authOf(request);
    const body = request.body;
    // Which right the request needs depends on its body: the result must exist (in scope) first.
    await objectifs.resultatView(auth, request.params.id);
    if ('status' in body) {
      if (!holds(auth, { feature: 'resultats-validation', action: 'edit' })) throw forbidden();
      if (Number(body.status) !== 1) throw invalid({ status: ['Seule la validation (status 1) est possible'] });
      return ok(await objectifs.validateResultat(auth, request.params.id), REFORME_MESSAGES.resultValidated);
    }
    if (!holds(auth, { feature: 'resultats', action: 'edit' })) throw forbidden();
    return ok(await objectifs.updateResultat(auth, request.params.id, parseOrInvalid(resultatPayloadSchema, body)), MESSAGES.updated);
  });
  on(ROUTES.removeResultat, (request) => deleted(objectifs.removeResultat(authOf(request), request.params.id)));
  on(ROUTES.setResultatState, (request) =>
    toggled(request.params.state, (isActive) => objectifs.setResultatActive(authOf(request), request.params.id, isActive)),
  );
};
