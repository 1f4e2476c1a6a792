import {
  ID_MAX,
  idParamsSchema,
  limitedText,
  listShape,
  MESSAGES,
  messageShape,
  REFORME_MESSAGES,
  reformeDetailAnswer,
  reformeFiltersSchema,
  reformeRowShape,
  reformeSchemaFor,
  stateParamSchema,
  TEXT_LIMITS,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listEnvelope, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { pageQuerySchema, searchBodySchema, searchPageOf } from '../../http/pagination.ts';
import { parseOrInvalid } from '../../http/validation.ts';
import type { ReformesService } from './reformes.service.ts';
import type { WorkflowService } from './workflow.service.ts';

const tags = ['Réformes'];
const can = (action: 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status') => ({ access: { feature: 'reformes' as const, action } });
const listQuery = pageQuerySchema.extend(reformeFiltersSchema.shape);

/** Spec §7 "Reforms": lists by scope, detail, create, update, delete, state, search, publish/unpublish. */
export const reformesRoutes: FastifyPluginAsyncZod<{ reformes: ReformesService; workflow: WorkflowService }> = async (
  app,
  { reformes, workflow },
) => {
  app.get(
    '/reformes',
    {
      config: can('list'),
      schema: {
        tags,
        summary: 'Liste filtrée (structure, nature, couverture, type, texte)',
        querystring: listQuery,
        response: { 200: listShape(reformeRowShape) },
      },
    },
    async (request) => {
      const { per_page, page, ...filters } = request.query;
      return listEnvelope(await reformes.list(authOf(request), filters, { per_page, page }));
    },
  );

  app.get(
    '/reformes/users/get-my-list',
    {
      config: can('list'),
      schema: {
        tags,
        summary: 'Mes enregistrements (filtrés, recherche)',
        querystring: listQuery,
        response: { 200: listShape(reformeRowShape) },
      },
    },
    async (request) => {
      const { per_page, page, ...filters } = request.query;
      return listEnvelope(await reformes.myList(authOf(request), filters, { per_page, page }));
    },
  );

  app.get(
    '/reformes/users/get-by-role',
    {
      config: can('list'),
      schema: {
        tags,
        summary: "Réformes à l'étape de mon rôle (filtrées, recherche)",
        querystring: listQuery,
        response: { 200: listShape(reformeRowShape) },
      },
    },
    async (request) => {
      const { per_page, page, ...filters } = request.query;
      return listEnvelope(await reformes.byRole(authOf(request), filters, { per_page, page }));
    },
  );

  for (const url of ['/reformes-search', '/reformes/-search']) {
    app.post(
      url,
      {
        config: can('list'),
        schema: {
          tags,
          summary: 'Recherche paginée',
          querystring: pageQuerySchema,
          body: searchBodySchema,
          response: { 200: listShape(reformeRowShape) },
        },
      },
      async (request) =>
        listEnvelope(await reformes.search(authOf(request), request.body.search, searchPageOf(request.query, request.body))),
    );
  }

  app.get(
    '/reformes/:id',
    { config: can('show'), schema: { tags, summary: 'Fiche détaillée', params: idParamsSchema, response: { 200: reformeDetailAnswer } } },
    async (request) => ok(await reformes.detail(authOf(request), request.params.id), MESSAGES.found),
  );

  // The body's rules depend on the caller's role (saisie central gives the structure): checked in the handler.
  app.post(
    '/reformes',
    {
      config: can('add'),
      schema: { tags, summary: 'Création', body: z.record(z.string(), z.unknown()), response: { 201: reformeDetailAnswer } },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const created = await reformes.create(auth, parseOrInvalid(reformeSchemaFor(auth.role), request.body));
      reply.status(201);
      return ok(created, REFORME_MESSAGES.created);
    },
  );

  app.put(
    '/reformes/:id',
    {
      config: can('edit'),
      schema: {
        tags,
        summary: 'Modification',
        params: idParamsSchema,
        body: z.record(z.string(), z.unknown()),
        response: { 200: reformeDetailAnswer },
      },
    },
    async (request) => {
      const auth = authOf(request);
      return ok(
        await reformes.update(auth, request.params.id, parseOrInvalid(reformeSchemaFor(auth.role), request.body)),
        REFORME_MESSAGES.updated,
      );
    },
  );

  app.delete(
    '/reformes/:id',
    { config: can('delete'), schema: { tags, summary: 'Suppression', params: idParamsSchema, response: { 200: messageShape } } },
    async (request) => {
      await reformes.remove(authOf(request), request.params.id);
      return { message: MESSAGES.deleted };
    },
  );

  app.get(
    '/reformes/:id/state/:state',
    {
      config: can('status'),
      schema: { tags, summary: 'Activer / désactiver', params: stateParamSchema, response: { 200: reformeDetailAnswer } },
    },
    async (request) => {
      const isActive = request.params.state === '1';
      return ok(
        await reformes.setActive(authOf(request), request.params.id, isActive),
        isActive ? MESSAGES.activated : MESSAGES.deactivated,
      );
    },
  );

  const publication = { access: { feature: 'publication' as const, action: 'edit' as const } };
  app.get(
    '/reformes/state/publish/:id',
    { config: publication, schema: { tags, summary: 'Publier', params: idParamsSchema, response: { 200: reformeDetailAnswer } } },
    async (request) => {
      const message = await workflow.apply(authOf(request), request.params.id, 'publish');
      return ok(await reformes.detail(authOf(request), request.params.id), message);
    },
  );

  app.get(
    '/reformes/state/unpublish/:id',
    {
      config: publication,
      schema: { tags, summary: 'Arrêter la publication', params: idParamsSchema, response: { 200: reformeDetailAnswer } },
    },
    async (request) => {
      const message = await workflow.apply(authOf(request), request.params.id, 'unpublish');
      return ok(await reformes.detail(authOf(request), request.params.id), message);
    },
  );

  const affectationSchema = z.object({
    reforme_id: z.coerce
      .number({ error: 'La réforme est requise' })
      .int()
      .positive({ error: 'La réforme est requise' })
      .max(ID_MAX, { error: 'La réforme est requise' }),
    sens: z.coerce.number().refine((sens) => sens === -1 || sens === 1, { error: 'Le sens doit valoir -1 (transmettre) ou 1 (retourner)' }),
    instruction: limitedText(TEXT_LIMITS.longText).nullish(),
  });
  app.post(
    '/affectations',
    {
      config: { access: { feature: 'affectations', action: 'add' } },
      schema: {
        tags: ['Circuit'],
        summary: 'Transmettre (-1) ou retourner (1)',
        body: affectationSchema,
        response: { 200: reformeDetailAnswer },
      },
    },
    async (request) => {
      const { reforme_id, sens, instruction } = request.body;
      const message = await workflow.apply(authOf(request), reforme_id, sens === -1 ? 'transmit' : 'return', instruction);
      return ok(await reformes.detail(authOf(request), reforme_id), message);
    },
  );
};
