import { REMINDER_MESSAGES, REMINDERS_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { routeTable } from '../../http/route-table.ts';
import type { RemindersService } from './reminders.service.ts';

/** Reminders by mail (issue 32): the handlers of REMINDERS_ROUTES (packages/domain/src/routes/reminders.ts). */
export const remindersRoutes: FastifyPluginAsyncZod<{ reminders: RemindersService }> = async (app, { reminders }) => {
  const on = routeTable(app);
  on(ROUTES.status, async () => ok(await reminders.status()));
  on(ROUTES.run, async () => {
    const run = await reminders.run('manual');
    return ok(run, REMINDER_MESSAGES.ran(run.mails));
  });
  on(ROUTES.preferences, async (request) => ok(await reminders.preferences(authOf(request).userId)));
  on(ROUTES.savePreferences, async (request) =>
    ok(await reminders.savePreferences(authOf(request).userId, request.body), REMINDER_MESSAGES.saved),
  );
};
