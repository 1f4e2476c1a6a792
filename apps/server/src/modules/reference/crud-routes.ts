import { envelopeShape, idParamsSchema, listShape, MESSAGES, messageShape, stateParamSchema } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { listEnvelope, ok } from '../../http/envelope.ts';
import { pageQuerySchema, searchBodySchema, searchPageOf } from '../../http/pagination.ts';
import type { CrudService, CrudTable } from './crud-service.ts';

/**
 * One route factory for every reference list: list (whole or paginated), show, create,
 * update, delete, state 0/1 and `POST {path}-search`, each behind the guard with the
 * resource's feature and the matching action.
 */
export function crudRoutes<TTable extends CrudTable, TSchema extends z.ZodObject>(
  service: CrudService<TTable, TSchema>,
): FastifyPluginAsyncZod {
  const { resource } = service;
  const { feature, path, tag } = resource;
  const tags = [tag];
  const idParams = idParamsSchema;
  const access = (action: 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status') => ({ access: { feature, action } });

  return async (app) => {
    const list = { 200: listShape(resource.row) };
    const one = envelopeShape(resource.row);

    app.get(
      `/${path}`,
      { config: access('list'), schema: { tags, summary: `Liste : ${tag}`, querystring: pageQuerySchema, response: list } },
      async (request) => listEnvelope(await service.list(request.query)),
    );

    app.post(
      `/${path}-search`,
      {
        config: access('list'),
        schema: { tags, summary: `Recherche paginée : ${tag}`, querystring: pageQuerySchema, body: searchBodySchema, response: list },
      },
      async (request) => listEnvelope(await service.search(request.body.search, searchPageOf(request.query, request.body))),
    );

    app.get(
      `/${path}/:id`,
      { config: access('show'), schema: { tags, summary: `Détail : ${tag}`, params: idParams, response: { 200: one } } },
      async (request) => ok(await service.findOne(request.params.id), MESSAGES.found),
    );

    app.post(
      `/${path}`,
      { config: access('add'), schema: { tags, summary: `Création : ${tag}`, body: resource.schema, response: { 201: one } } },
      async (request, reply) => {
        const created = await service.create(request.body as Record<string, unknown>);
        reply.status(201);
        return ok(created, MESSAGES.created);
      },
    );

    app.put(
      `/${path}/:id`,
      {
        config: access('edit'),
        schema: { tags, summary: `Modification : ${tag}`, params: idParams, body: resource.schema, response: { 200: one } },
      },
      async (request) => ok(await service.update(request.params.id, request.body as z.infer<TSchema>), MESSAGES.updated),
    );

    app.delete(
      `/${path}/:id`,
      { config: access('delete'), schema: { tags, summary: `Suppression : ${tag}`, params: idParams, response: { 200: messageShape } } },
      async (request) => {
        await service.remove(request.params.id);
        return { message: MESSAGES.deleted };
      },
    );

    app.get(
      `/${path}/:id/state/:state`,
      {
        config: access('status'),
        schema: { tags, summary: `Activation / désactivation : ${tag}`, params: stateParamSchema, response: { 200: one } },
      },
      async (request) => {
        const isActive = request.params.state === '1';
        return ok(await service.setActive(request.params.id, isActive), isActive ? MESSAGES.activated : MESSAGES.deactivated);
      },
    );
  };
}
