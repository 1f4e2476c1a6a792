import { dashboardAnswer, isAdminRole, isRoleName, limitedText, MESSAGES, seesAllStructures, TEXT_LIMITS } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import type { DashboardService } from './dashboard.service.ts';

const access = { feature: 'dashboard', action: 'list' } as const;
const tags = ['Tableau de bord'];

export const dashboardRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (app, { dashboard }) => {
  app.get(
    '/dash',
    { config: { access }, schema: { tags, summary: 'Compteurs du tableau de bord', response: { 200: dashboardAnswer } } },
    async (request) => {
      const auth = authOf(request);
      return ok(await dashboard.compute(auth.role, auth.structureId), MESSAGES.success);
    },
  );

  app.get(
    '/dash/:role',
    {
      config: { access },
      schema: {
        tags,
        summary: "Compteurs vus par un rôle (le sien ; tous pour l'admin)",
        params: z.object({ role: limitedText(TEXT_LIMITS.label) }),
        response: { 200: dashboardAnswer },
      },
    },
    async (request) => {
      const auth = authOf(request);
      const role = request.params.role;
      // Everyone may ask for its own view, a role of its own included (spec §2.3 "any other role").
      const isOwnView = role === auth.role;
      if (!isOwnView && (!isRoleName(role) || !isAdminRole(auth.role))) throw forbidden();
      // Admin looks at any role's view across every structure; the others count in their own scope.
      return ok(await dashboard.compute(role, seesAllStructures(auth.role) ? undefined : auth.structureId), MESSAGES.success);
    },
  );
};
