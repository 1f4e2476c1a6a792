import {
  ID_MAX,
  idParamsSchema,
  listShape,
  MESSAGES,
  messageShape,
  SUIVI_MESSAGES,
  searchTextField,
  suiviRecordAnswer,
  suiviRecordShape,
  suiviReformeShape,
  suiviSchema,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listEnvelope, ok, plainList } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { pageQuerySchema } from '../../http/pagination.ts';
import type { SuiviService } from './suivi.service.ts';

const tags = ['Données de suivi'];
const on = (action: 'list' | 'show' | 'add' | 'delete') => ({ access: { feature: 'suivi-results' as const, action } });

/** Spec §7 `suivi-results/` and `reformes/users/get-suivi-result`. */
export const suiviRoutes: FastifyPluginAsyncZod<{ suivi: SuiviService }> = async (app, { suivi }) => {
  app.get(
    '/reformes/users/get-suivi-result',
    {
      config: on('list'),
      schema: {
        tags,
        summary: 'Réformes (une, ou une page recherchée), avec objectifs, résultats et suivis imbriqués',
        querystring: pageQuerySchema.extend({
          reforme_id: z.coerce.number().int().positive().max(ID_MAX).optional(),
          search: searchTextField,
        }),
        response: { 200: listShape(suiviReformeShape) },
      },
    },
    async (request) => {
      const { reforme_id, search, ...page } = request.query;
      const auth = authOf(request);
      if (reforme_id) return plainList(await suivi.reformeWithSuivi(auth, reforme_id));
      return listEnvelope(await suivi.page(auth, search, page));
    },
  );

  app.get(
    '/suivi-results',
    {
      config: on('list'),
      schema: {
        tags,
        summary: "Suivis d'un résultat",
        querystring: z.object({ result_id: z.coerce.number().int().positive().max(ID_MAX) }),
        response: { 200: listShape(suiviRecordShape) },
      },
    },
    async (request) => plainList(await suivi.recordsOf(authOf(request), request.query.result_id)),
  );

  app.get(
    '/suivi-results/:id',
    { config: on('show'), schema: { tags, params: idParamsSchema, response: { 200: suiviRecordAnswer } } },
    async (request) => ok(await suivi.record(authOf(request), request.params.id), MESSAGES.found),
  );

  app.post(
    '/suivi-results',
    {
      config: on('add'),
      schema: { tags, summary: 'Enregistrer une donnée de suivi', body: suiviSchema, response: { 201: suiviRecordAnswer } },
    },
    async (request, reply) => {
      const created = await suivi.create(authOf(request), request.body);
      reply.status(201);
      return ok(created, SUIVI_MESSAGES.created);
    },
  );

  app.delete(
    '/suivi-results/:id',
    {
      config: on('delete'),
      schema: { tags, summary: 'Retirer une donnée de suivi', params: idParamsSchema, response: { 200: messageShape } },
    },
    async (request) => {
      await suivi.remove(authOf(request), request.params.id);
      return { message: MESSAGES.deleted };
    },
  );
};
