import {
  idParamsSchema,
  listShape,
  MESSAGES,
  messageShape,
  resetPasswordSchema,
  stateParamSchema,
  userAnswer,
  userSchema,
  userShape,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEnvelope, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { pageQuerySchema, searchBodySchema, searchPageOf } from '../../http/pagination.ts';
import type { UsersService } from './users.service.ts';

const tags = ['Comptes utilisateurs'];
const access = (action: 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status') => ({ access: { feature: 'users' as const, action } });

/** Spec §7 "Users". */
export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  app.get(
    '/users',
    {
      config: access('list'),
      schema: { tags, summary: 'Liste des utilisateurs', querystring: pageQuerySchema, response: { 200: listShape(userShape) } },
    },
    async (request) => listEnvelope(await users.list(request.query)),
  );

  app.post(
    '/users-search',
    {
      config: access('list'),
      schema: {
        tags,
        summary: 'Recherche paginée',
        querystring: pageQuerySchema,
        body: searchBodySchema,
        response: { 200: listShape(userShape) },
      },
    },
    async (request) => listEnvelope(await users.search(request.body.search, searchPageOf(request.query, request.body))),
  );

  app.get(
    '/users/:id',
    { config: access('show'), schema: { tags, summary: 'Détail', params: idParamsSchema, response: { 200: userAnswer } } },
    async (request) => ok(await users.show(request.params.id), MESSAGES.found),
  );

  app.post(
    '/users',
    {
      config: access('add'),
      schema: { tags, summary: 'Création (mot de passe temporaire envoyé par mail)', body: userSchema, response: { 201: userAnswer } },
    },
    async (request, reply) => {
      reply.status(201);
      return ok(await users.create(request.body), MESSAGES.userCreated);
    },
  );

  app.put(
    '/users/:id',
    {
      config: access('edit'),
      schema: { tags, summary: 'Modification', params: idParamsSchema, body: userSchema, response: { 200: userAnswer } },
    },
    async (request) => ok(await users.update(request.params.id, request.body), MESSAGES.updated),
  );

  app.delete(
    '/users/:id',
    { config: access('delete'), schema: { tags, summary: 'Suppression', params: idParamsSchema, response: { 200: messageShape } } },
    async (request) => {
      await users.remove(request.params.id, authOf(request).userId);
      return { message: MESSAGES.deleted };
    },
  );

  app.get(
    '/users/:id/state/:state',
    { config: access('status'), schema: { tags, summary: 'Activer / bloquer', params: stateParamSchema, response: { 200: userAnswer } } },
    async (request) => {
      const isActive = request.params.state === '1';
      return ok(
        await users.setActive(request.params.id, isActive, authOf(request).userId),
        isActive ? MESSAGES.activated : MESSAGES.deactivated,
      );
    },
  );

  app.post(
    '/reset-password',
    {
      config: access('edit'),
      schema: { tags, summary: 'Réinitialise le mot de passe (temporaire)', body: resetPasswordSchema, response: { 200: messageShape } },
    },
    async (request) => {
      await users.resetPassword(request.body);
      return { message: MESSAGES.passwordReset };
    },
  );
};
