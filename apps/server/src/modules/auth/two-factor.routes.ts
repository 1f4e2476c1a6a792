import {
  envelopeShape,
  idParamsSchema,
  messageShape,
  recoveryCodesAnswer,
  TWO_FACTOR_MESSAGES,
  twoFactorConfirmSchema,
  twoFactorSetupAnswer,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden, notFound } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { type AccountNotice, type NoticeRecipient, sendAccountNotice } from './account-notices.ts';
import { reauthenticate, revokeOtherSessions } from './account-security.ts';
import { loadUserView } from './current-user.ts';
import type { Sessions } from './sessions.ts';
import type { Throttles } from './throttles.ts';
import type { TwoFactor } from './two-factor.ts';

const tags = ['Double authentification'];
const statusShape = z.object({ enabled: z.boolean(), required: z.boolean(), recovery_codes_left: z.number() });

/** A wrong password or a wrong code: one answer, so that a session alone cannot test passwords (issue 29). */
const wrongPasswordOrCode = () =>
  new AppError(422, TWO_FACTOR_MESSAGES.wrongPasswordOrCode, {
    password: [TWO_FACTOR_MESSAGES.wrongPasswordOrCode],
    code: [TWO_FACTOR_MESSAGES.wrongPasswordOrCode],
  });

export interface TwoFactorRoutesOptions {
  db: Db;
  twoFactor: TwoFactor;
  sessions: Sessions;
  throttles: Throttles;
  mailer: Mailer;
}

/**
 * "Mon compte" > Double authentification (issue 18): enrolment by QR code or key, confirmed by the password and a
 * code, 10 recovery codes shown once; turning it off or renewing the recovery codes needs the password and a code
 * too, counted like sign-ins (issue 29). Turning it on or off ends the account's other sessions, and each change is
 * mailed to the account. The enrolment routes stay open to a user whose role demands a second factor not yet
 * enrolled (the guard's 'two-factor-setup'); every other route is closed to it.
 */
export const twoFactorRoutes: FastifyPluginAsyncZod<TwoFactorRoutesOptions> = async (
  app,
  { db, twoFactor, sessions, throttles, mailer },
) => {
  const notify = (kind: AccountNotice, to: NoticeRecipient) => sendAccountNotice({ mailer, log: app.log }, kind, to);

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
      schema: {
        tags,
        summary: "Confirmer l'activation (mot de passe et code)",
        body: twoFactorConfirmSchema,
        response: { 200: recoveryCodesAnswer },
      },
    },
    async (request) => {
      const { userId, sessionId } = authOf(request);
      const { password, code } = request.body;
      const { sealed, step } = await twoFactor.pendingEnrolment(userId, code);
      await reauthenticate(
        { db, throttles },
        {
          userId,
          ip: request.ip,
          route: 'api/2fa/enable',
          password,
          isRightCode: async () => step !== null,
          refusal: wrongPasswordOrCode(),
        },
      );
      if (step === null) throw wrongPasswordOrCode();
      const { email, firstname, lastname } = await twoFactor.secretsOf(userId);
      const codes = await db.transaction(async (tx) => {
        const given = await twoFactor.enable(tx, userId, { sealed, step });
        await revokeOtherSessions(tx, userId, sessionId);
        await recordAudit(tx, { action: 'two_factor.enable', target: { type: 'user', id: userId, label: email } });
        return given;
      });
      await notify('two_factor_enabled', { email, firstname, lastname });
      return ok({ recovery_codes: codes }, TWO_FACTOR_MESSAGES.enabled);
    },
  );

  /** The account of the caller, whose second factor must be on (409 otherwise). */
  async function enabledView(userId: number) {
    const view = await loadUserView(db, userId);
    if (!view?.two_factor.enabled) throw new AppError(409, TWO_FACTOR_MESSAGES.notEnabled);
    return view;
  }

  /** The password and a code (TOTP or recovery) typed again, counted like a sign-in. */
  async function confirm(request: { ip: string; body: { password: string; code: string } }, userId: number, route: string) {
    await reauthenticate(
      { db, throttles },
      {
        userId,
        ip: request.ip,
        route,
        password: request.body.password,
        isRightCode: async () => (await twoFactor.verify(userId, request.body.code)) !== null,
        refusal: wrongPasswordOrCode(),
      },
    );
  }

  app.post(
    '/api/2fa/disable',
    {
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Désactiver (mot de passe et code)', body: twoFactorConfirmSchema, response: { 200: messageShape } },
    },
    async (request) => {
      const { userId, sessionId } = authOf(request);
      const view = await enabledView(userId);
      if (view.two_factor.required) throw forbidden(TWO_FACTOR_MESSAGES.requiredCannotDisable);
      await confirm(request, userId, 'api/2fa/disable');
      await db.transaction(async (tx) => {
        await twoFactor.clear(tx, userId);
        await revokeOtherSessions(tx, userId, sessionId);
        await recordAudit(tx, { action: 'two_factor.disable', target: { type: 'user', id: userId, label: view.email } });
      });
      await notify('two_factor_disabled', view);
      return { message: TWO_FACTOR_MESSAGES.disabled };
    },
  );

  app.post(
    '/api/2fa/recovery-codes',
    {
      config: { access: 'signed-in' },
      schema: {
        tags,
        summary: 'Nouveaux codes de secours (mot de passe et code)',
        body: twoFactorConfirmSchema,
        response: { 200: recoveryCodesAnswer },
      },
    },
    async (request) => {
      const { userId } = authOf(request);
      const view = await enabledView(userId);
      await confirm(request, userId, 'api/2fa/recovery-codes');
      const codes = await db.transaction(async (tx) => {
        const given = await twoFactor.newRecoveryCodes(tx, userId);
        await recordAudit(tx, { action: 'two_factor.recovery_codes_renewed', target: { type: 'user', id: userId, label: view.email } });
        return given;
      });
      await notify('recovery_codes_renewed', view);
      return ok({ recovery_codes: codes }, TWO_FACTOR_MESSAGES.recoveryCodesRenewed);
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
      if (view.two_factor.enabled) await notify('two_factor_reset', view);
      return { message: TWO_FACTOR_MESSAGES.reset };
    },
  );
};
