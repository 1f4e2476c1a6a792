import { TWO_FACTOR_ROUTES as ROUTES, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientOf } from '../../http/client-key.ts';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { routeTable } from '../../http/route-table.ts';
import type { TwoFactorService } from './two-factor.service.ts';

/** "Mon compte" > Double authentification (issue 18): the handlers of TWO_FACTOR_ROUTES (packages/domain/src/routes/two-factor.ts). */
export const twoFactorRoutes: FastifyPluginAsyncZod<{ twoFactor: TwoFactorService }> = async (app, { twoFactor }) => {
  const on = routeTable(app);
  const callerOf = (request: FastifyRequest) => {
    const { userId, sessionId } = authOf(request);
    return { userId, sessionId, client: clientOf(request) };
  };
  on(ROUTES.status, async (request) => ok(await twoFactor.status(authOf(request).userId)));
  on(ROUTES.setup, async (request) => ok(await twoFactor.setup(authOf(request).userId)));
  on(ROUTES.enable, async (request) =>
    ok({ recovery_codes: await twoFactor.enable(callerOf(request), request.body) }, TWO_FACTOR_MESSAGES.enabled),
  );
  on(ROUTES.disable, async (request) => {
    await twoFactor.disable(callerOf(request), request.body);
    return { message: TWO_FACTOR_MESSAGES.disabled };
  });
  on(ROUTES.renewRecoveryCodes, async (request) =>
    ok({ recovery_codes: await twoFactor.renewRecoveryCodes(callerOf(request), request.body) }, TWO_FACTOR_MESSAGES.recoveryCodesRenewed),
  );
  on(ROUTES.reset, async (request) => {
    await twoFactor.resetFor(request.params.id);
    return { message: TWO_FACTOR_MESSAGES.reset };
  });
};
