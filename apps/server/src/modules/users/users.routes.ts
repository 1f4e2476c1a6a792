import { MESSAGES, USERS_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleted, listEnvelope, ok, toggled } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { searchPageOf } from '../../http/pagination.ts';
import { routeTable } from '../../http/route-table.ts';
import type { UsersService } from './users.service.ts';

/** Spec §7 "Users": the handlers of USERS_ROUTES (packages/domain/src/routes/users.ts). */
export const usersRoutes: FastifyPluginAsyncZod<{ users: UsersService }> = async (app, { users }) => {
  const on = routeTable(app);
  on(ROUTES.list, async (request) => listEnvelope(await users.list(request.query)));
  on(ROUTES.search, async (request) => listEnvelope(await users.search(request.body.search, searchPageOf(request.query, request.body))));
  on(ROUTES.show, async (request) => ok(await users.show(request.params.id), MESSAGES.found));
  on(ROUTES.create, async (request) => ok(await users.create(request.body), MESSAGES.userCreated));
  on(ROUTES.update, async (request) => ok(await users.update(request.params.id, request.body), MESSAGES.updated));
  on(ROUTES.remove, (request) => deleted(users.remove(request.params.id, authOf(request).userId)));
  on(ROUTES.setState, (request) =>
    toggled(request.params.state, (isActive) => users.setActive(request.params.id, isActive, authOf(request).userId)),
  );
  on(ROUTES.resetPassword, async (request) => {
    await users.resetPassword(request.body);
    return { message: MESSAGES.passwordReset };
  });
};
