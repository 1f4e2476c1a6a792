import { isAdminRole, isRoleName, MESSAGES, DASHBOARD_ROUTES as ROUTES, seesAllStructures } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { forbidden } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { routeTable } from '../../http/route-table.ts';
import type { DashboardService } from './dashboard.service.ts';

/** The handlers of DASHBOARD_ROUTES (packages/domain/src/routes/dashboard.ts). */
export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (app, { dashboard }) => {
  const on = routeTable(app);
  on(ROUTES.own, async (request) => {
    const auth = authOf(request);
    return ok(await dashboard.compute(auth.role, auth.structureId), MESSAGES.success);
  });

  on(ROUTES.ofRole, async (request) => {
    const auth = authOf(request);
    const role = request.params.role;
    // Everyone may ask for its own view, a role of its own included (spec §2.3 "any other role").
    const isOwnView = role === auth.role;
    if (!isOwnView && (!isRoleName(role) || !isAdminRole(auth.role))) throw forbidden();
    // Admin looks at any role's view across every structure; the others count in their own scope.
    return ok(await dashboard.compute(role, seesAllStructures(auth.role) ? undefined : auth.structureId), MESSAGES.success);
  });
};
