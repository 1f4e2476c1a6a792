import {
  ID_MAX,
  idParamsSchema,
  listShape,
  MESSAGES,
  messageShape,
  objectifAnswer,
  objectifRowShape,
  objectifSchema,
  objectifShape,
  REFORME_MESSAGES,
  resultatAnswer,
  resultatListRowShape,
  resultatPayloadSchema,
  searchTextField,
  stateParamSchema,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden, invalid } from '../../http/app-error.ts';
import { listEnvelope, ok, plainList } from '../../http/envelope.ts';
import { authOf, holds } from '../../http/guard.ts';
import { pageQuerySchema, searchBodySchema, searchPageOf } from '../../http/pagination.ts';
import { parseOrInvalid } from '../../http/validation.ts';
import type { ObjectifsService } from './objectifs.service.ts';

type ActionName = 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status';
const on = (feature: 'objectifs' | 'resultats', action: ActionName) => ({ access: { feature, action } });

/** Spec §7 `objectifs/` and `resultats/`. */
export const objectifsRoutes: FastifyPluginAsyncZod<{ objectifs: ObjectifsService }> = async (app, { objectifs }) => {
  const tags = ['Objectifs'];
  const objectifsQuery = pageQuerySchema.extend({
    search: searchTextField,
    reforme_id: z.coerce.number().int().positive().max(ID_MAX).optional(),
  });
  app.get(
    '/objectifs',
    {
      config: on('objectifs', 'list'),
      schema: { tags, summary: 'Liste (réforme, recherche)', querystring: objectifsQuery, response: { 200: listShape(objectifRowShape) } },
    },
    async (request) => {
      const { search, reforme_id, ...page } = request.query;
      return listEnvelope(await objectifs.listObjectifs(authOf(request), { search, reforme_id }, page));
    },
  );
  app.post(
    '/objectifs-search',
    {
      config: on('objectifs', 'list'),
      schema: {
        tags,
        summary: 'Recherche paginée',
        querystring: pageQuerySchema,
        body: searchBodySchema,
        response: { 200: listShape(objectifRowShape) },
      },
    },
    async (request) =>
      listEnvelope(
        await objectifs.listObjectifs(authOf(request), { search: request.body.search }, searchPageOf(request.query, request.body)),
      ),
  );
  app.get(
    '/objectifs/by-reforme/:id',
    {
      config: on('objectifs', 'list'),
      schema: { tags, summary: "Objectifs d'une réforme", params: idParamsSchema, response: { 200: listShape(objectifShape) } },
    },
    async (request) => plainList(await objectifs.byReforme(authOf(request), request.params.id)),
  );
  app.get(
    '/objectifs/:id',
    { config: on('objectifs', 'show'), schema: { tags, params: idParamsSchema, response: { 200: objectifAnswer } } },
    async (request) => ok(await objectifs.objectifView(authOf(request), request.params.id), MESSAGES.found),
  );
  app.post(
    '/objectifs',
    { config: on('objectifs', 'add'), schema: { tags, body: objectifSchema, response: { 201: objectifAnswer } } },
    async (request, reply) => {
      reply.status(201);
      return ok(await objectifs.createObjectif(authOf(request), request.body), REFORME_MESSAGES.objectifCreated);
    },
  );
  app.put(
    '/objectifs/:id',
    { config: on('objectifs', 'edit'), schema: { tags, params: idParamsSchema, body: objectifSchema, response: { 200: objectifAnswer } } },
    async (request) => ok(await objectifs.updateObjectif(authOf(request), request.params.id, request.body), MESSAGES.updated),
  );
  app.delete(
    '/objectifs/:id',
    { config: on('objectifs', 'delete'), schema: { tags, params: idParamsSchema, response: { 200: messageShape } } },
    async (request) => {
      await objectifs.removeObjectif(authOf(request), request.params.id);
      return { message: MESSAGES.deleted };
    },
  );
  app.get(
    '/objectifs/:id/state/:state',
    { config: on('objectifs', 'status'), schema: { tags, params: stateParamSchema, response: { 200: objectifAnswer } } },
    async (request) => {
      const isActive = request.params.state === '1';
      return ok(
        await objectifs.setObjectifActive(authOf(request), request.params.id, isActive),
        isActive ? MESSAGES.activated : MESSAGES.deactivated,
      );
    },
  );

  const resultTags = ['Résultats attendus'];
  const resultatsQuery = pageQuerySchema.extend({
    search: searchTextField,
    objectif_id: z.coerce.number().int().positive().max(ID_MAX).optional(),
  });
  app.get(
    '/resultats',
    {
      config: on('resultats', 'list'),
      schema: {
        tags: resultTags,
        summary: 'Liste (objectif, recherche)',
        querystring: resultatsQuery,
        response: { 200: listShape(resultatListRowShape) },
      },
    },
    async (request) => {
      const { search, objectif_id, ...page } = request.query;
      return listEnvelope(await objectifs.listResultats(authOf(request), { search, objectif_id }, page));
    },
  );
  app.post(
    '/resultats-search',
    {
      config: on('resultats', 'list'),
      schema: {
        tags: resultTags,
        summary: 'Recherche paginée',
        querystring: pageQuerySchema,
        body: searchBodySchema,
        response: { 200: listShape(resultatListRowShape) },
      },
    },
    async (request) =>
      listEnvelope(
        await objectifs.listResultats(authOf(request), { search: request.body.search }, searchPageOf(request.query, request.body)),
      ),
  );
  app.get(
    '/resultats/:id',
    { config: on('resultats', 'show'), schema: { tags: resultTags, params: idParamsSchema, response: { 200: resultatAnswer } } },
    async (request) => ok(await objectifs.resultatView(authOf(request), request.params.id), MESSAGES.found),
  );
  app.post(
    '/resultats',
    { config: on('resultats', 'add'), schema: { tags: resultTags, body: resultatPayloadSchema, response: { 201: resultatAnswer } } },
    async (request, reply) => {
      reply.status(201);
      return ok(await objectifs.createResultat(authOf(request), request.body), REFORME_MESSAGES.resultatCreated);
    },
  );

  // Spec §7: validating a result is "an update with {status: 1}" — a right of its own (publication).
  app.put(
    '/resultats/:id',
    {
      config: {
        access: {
          anyOf: [
            { feature: 'resultats', action: 'edit' },
            { feature: 'resultats-validation', action: 'edit' },
          ],
        },
      },
      schema: {
        tags: resultTags,
        summary: 'Modification, ou validation avec {status: 1}',
        params: idParamsSchema,
        body: z.record(z.string(), z.unknown()),
        response: { 200: resultatAnswer },
      },
    },
    async (request) => {
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
    },
  );
  app.delete(
    '/resultats/:id',
    { config: on('resultats', 'delete'), schema: { tags: resultTags, params: idParamsSchema, response: { 200: messageShape } } },
    async (request) => {
      await objectifs.removeResultat(authOf(request), request.params.id);
      return { message: MESSAGES.deleted };
    },
  );
  app.get(
    '/resultats/:id/state/:state',
    { config: on('resultats', 'status'), schema: { tags: resultTags, params: stateParamSchema, response: { 200: resultatAnswer } } },
    async (request) => {
      const isActive = request.params.state === '1';
      return ok(
        await objectifs.setResultatActive(authOf(request), request.params.id, isActive),
        isActive ? MESSAGES.activated : MESSAGES.deactivated,
      );
    },
  );
};
