import {
  envelopeShape,
  idParamsSchema,
  messageShape,
  recoveryCodesAnswer,
  TWO_FACTOR_MESSAGES,
  twoFactorCodeSchema,
  twoFactorDisableSchema,
  twoFactorSetupAnswer,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden, notFound } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { loadUserView } from './current-user.ts';
import { verifyPassword } from './password.ts';
import type { Sessions } from './sessions.ts';
import type { TwoFactor } from './two-factor.ts';

const tags = ['Double authentification'];
const statusShape = z.object({ enabled: z.boolean(), required: z.boolean(), recovery_codes_left: z.number() });

/**
 * "Mon compte" > Double authentification (issue 18): enrolment by QR code or key, confirmed by a code, 10 recovery
 * codes shown once; turning it off needs the password and a code. The enrolment routes stay open to a user whose
 * role demands a second factor not yet enrolled (the guard's 'two-factor-setup'); every other route is closed to it.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod<{ db: Db; twoFactor: TwoFactor; sessions: Sessions }> = async (
  app,
  { db, twoFactor, sessions },
) => {
  app.get(
    '/api/2fa',
    {
      config: { access: 'two-factor-setup' },
      schema: { tags, summary: 'État de la double authentification', response: { 200: envelopeShape(statusShape) } },
    },
    async (request) => {
      const { userId } = authOf(request);
      const view = await loadUserView(db, userId);
      if (!view) throw notFound();
      return ok({ ...view.two_factor, recovery_codes_left: await twoFactor.recoveryCodesLeft(userId) });
    },
  );

  app.post(
    '/api/2fa/setup',
    {
      config: { access: 'two-factor-setup' },
      schema: { tags, summary: "Commencer l'activation : QR code et clé", response: { 200: twoFactorSetupAnswer } },
    },
    async (request) => ok(await twoFactor.setup(authOf(request).userId)),
  );

  app.post(
    '/api/2fa/enable',
    {
      config: { access: 'two-factor-setup' },
      schema: { tags, summary: "Confirmer l'activation par un code", body: twoFactorCodeSchema, response: { 200: recoveryCodesAnswer } },
    },
    async (request) =>
      ok({ recovery_codes: await twoFactor.enable(authOf(request).userId, request.body.code) }, TWO_FACTOR_MESSAGES.enabled),
  );

  app.post(
    '/api/2fa/disable',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Désactiver (mot de passe et code)', body: twoFactorDisableSchema, response: { 200: messageShape } },
    },
    async (request) => {
      const { userId } = authOf(request);
      const view = await loadUserView(db, userId);
      if (!view?.two_factor.enabled) throw new AppError(409, TWO_FACTOR_MESSAGES.notEnabled);
      if (view.two_factor.required) throw forbidden(TWO_FACTOR_MESSAGES.requiredCannotDisable);
      const { passwordHash } = await twoFactor.secretsOf(userId);
      if (!(await verifyPassword(passwordHash, request.body.password)))
        throw new AppError(422, TWO_FACTOR_MESSAGES.wrongPassword, { password: [TWO_FACTOR_MESSAGES.wrongPassword] });
      if (!(await twoFactor.verify(userId, request.body.code)))
        throw new AppError(422, TWO_FACTOR_MESSAGES.invalidCode, { code: [TWO_FACTOR_MESSAGES.invalidCode] });
      await db.transaction(async (tx) => {
        await twoFactor.clear(tx, userId);
        await recordAudit(tx, { action: 'two_factor.disable', target: { type: 'user', id: userId, label: view.email } });
      });
      return { message: TWO_FACTOR_MESSAGES.disabled };
    },
  );

  app.post(
    '/users/:id/two-factor-reset',
    {
      config: { access: { feature: 'users', action: 'edit' } },
      schema: {
        tags,
        summary: "Réinitialiser la double authentification d'un compte",
        params: idParamsSchema,
        response: { 200: messageShape },
      },
    },
    async (request) => {
      const { id } = request.params;
      const view = await loadUserView(db, id);
      if (!view) throw notFound();
      await db.transaction(async (tx) => {
        await twoFactor.clear(tx, id);
        // Whoever held the lost device may hold a session too: every session of the account ends.
        await sessions.revokeAllOf(id, tx);
        await recordAudit(tx, { action: 'two_factor.reset', target: { type: 'user', id, label: view.email } });
      });
      return { message: TWO_FACTOR_MESSAGES.reset };
    },
  );
};
