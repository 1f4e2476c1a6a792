import { TWO_FACTOR_MESSAGES, type TwoFactorConfirmInput } from '@reformes/domain';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden, notFound } from '../../http/app-error.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { queueAccountNotice } from './account-notices.ts';
import { reauthenticate, revokeOtherSessions } from './account-security.ts';
import { loadUserView } from './current-user.ts';
import type { Sessions } from './sessions.ts';
import type { Throttles } from './throttles.ts';
import type { TwoFactor } from './two-factor.ts';

/** A wrong password or a wrong code: one answer, so that a session alone cannot test passwords (issue 29). */
const wrongPasswordOrCode = () =>
  new AppError(422, TWO_FACTOR_MESSAGES.wrongPasswordOrCode, {
    password: [TWO_FACTOR_MESSAGES.wrongPasswordOrCode],
    code: [TWO_FACTOR_MESSAGES.wrongPasswordOrCode],
  });

/** Who asks: the account, its session (kept when the others end) and its client (`clientKey`, for the sign-in back-off). */
export interface TwoFactorCaller {
  userId: number;
  sessionId: string;
  client: string;
}

export interface TwoFactorServiceOptions {
  db: Db;
  twoFactor: TwoFactor;
  sessions: Sessions;
  throttles: Throttles;
}

/**
 * "Mon compte" > Double authentification (issue 18): enrolment by QR code or key, confirmed by the password and a
 * code, 10 recovery codes shown once; turning it off or renewing the recovery codes needs the password and a code
 * too, counted like sign-ins (issue 29). Turning it on or off ends the account's other sessions, and each change is
 * mailed to the account.
 */
export function createTwoFactorService({ db, twoFactor, sessions, throttles }: TwoFactorServiceOptions) {
  /** The account of the caller, whose second factor must be on (409 otherwise). */
  async function enabledView(userId: number) {
    const view = await loadUserView(db, userId);
    if (!view?.two_factor.enabled) throw new AppError(409, TWO_FACTOR_MESSAGES.notEnabled);
    return view;
  }

  /** The password and a code (TOTP or recovery) typed again, counted like a sign-in. */
  async function confirm({ userId, client }: TwoFactorCaller, { password, code }: TwoFactorConfirmInput, route: string) {
    await reauthenticate(
      { db, throttles },
      {
        userId,
        client,
        route,
        password,
        isRightCode: async () => (await twoFactor.verify(userId, code)) !== null,
        refusal: wrongPasswordOrCode(),
      },
    );
  }

  return {
    /** Whether the caller's second factor is on, whether its role demands one, how many recovery codes are left. */
    async status(userId: number) {
      const view = await loadUserView(db, userId);
      if (!view) throw notFound();
      return { ...view.two_factor, recovery_codes_left: await twoFactor.recoveryCodesLeft(userId) };
    },

    /** The QR code and key of a new enrolment, pending until `enable` confirms it. */
    setup: (userId: number) => twoFactor.setup(userId),

    /** Confirms the pending enrolment by the password and a code; ends the other sessions; answers the recovery codes. */
    async enable(caller: TwoFactorCaller, { password, code }: TwoFactorConfirmInput) {
      const { userId, sessionId } = caller;
      const { sealed, step } = await twoFactor.pendingEnrolment(userId, code);
      await reauthenticate(
        { db, throttles },
        {
          userId,
          client: caller.client,
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
        await queueAccountNotice(tx, 'two_factor_enabled', { email, firstname, lastname });
        return given;
      });
      return codes;
    },

    /** Turns the second factor off (not when the role demands it), by the password and a code; ends the other sessions. */
    async disable(caller: TwoFactorCaller, input: TwoFactorConfirmInput) {
      const { userId, sessionId } = caller;
      const view = await enabledView(userId);
      if (view.two_factor.required) throw forbidden(TWO_FACTOR_MESSAGES.requiredCannotDisable);
      await confirm(caller, input, 'api/2fa/disable');
      await db.transaction(async (tx) => {
        await twoFactor.clear(tx, userId);
        await revokeOtherSessions(tx, userId, sessionId);
        await recordAudit(tx, { action: 'two_factor.disable', target: { type: 'user', id: userId, label: view.email } });
        await queueAccountNotice(tx, 'two_factor_disabled', view);
      });
    },

    /** New recovery codes in place of the old ones, by the password and a code. */
    async renewRecoveryCodes(caller: TwoFactorCaller, input: TwoFactorConfirmInput) {
      const { userId } = caller;
      const view = await enabledView(userId);
      await confirm(caller, input, 'api/2fa/recovery-codes');
      const codes = await db.transaction(async (tx) => {
        const given = await twoFactor.newRecoveryCodes(tx, userId);
        await recordAudit(tx, { action: 'two_factor.recovery_codes_renewed', target: { type: 'user', id: userId, label: view.email } });
        await queueAccountNotice(tx, 'recovery_codes_renewed', view);
        return given;
      });
      return codes;
    },

    /** An administrator clears the second factor of account `userId` (a lost device): every session of it ends. */
    async resetFor(userId: number) {
      const view = await loadUserView(db, userId);
      if (!view) throw notFound();
      await db.transaction(async (tx) => {
        await twoFactor.clear(tx, userId);
        // Whoever held the lost device may hold a session too: every session of the account ends.
        await sessions.revokeAllOf(userId, tx);
        await recordAudit(tx, { action: 'two_factor.reset', target: { type: 'user', id: userId, label: view.email } });
        if (view.two_factor.enabled) await queueAccountNotice(tx, 'two_factor_reset', view);
      });
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
