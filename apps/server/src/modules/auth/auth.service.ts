import {
  DIRECTORY_MESSAGES,
  ERROR_CODES,
  isEmailChange,
  MESSAGES,
  TWO_FACTOR_MESSAGES,
  tooManyAttemptsMessage,
  type UserUpdateInput,
} from '@reformes/domain';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { directorySessions, passwordResetTokens, roles, userRoles, users } from '../../db/schema/index.ts';
import { AppError, conflict, forbidden, invalid, notFound, tooManyRequests, unauthenticated } from '../../http/app-error.ts';
import { permissionNamesOf } from '../../http/guard.ts';
import { enqueue, enqueueMail } from '../../jobs/queue.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { recordSignInFailure } from '../audit/sign-in-events.ts';
import { queueAccountNotice } from './account-notices.ts';
import { reauthenticate, revokeOtherSessions } from './account-security.ts';
import { userViewOf } from './current-user.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password.ts';
import { assertAcceptablePassword } from './password-policy.ts';
import { hashToken, newOpaqueToken, type Sessions } from './sessions.ts';
import { emailKey, forgetSignInFailures, type Throttles } from './throttles.ts';
import type { TwoFactor } from './two-factor.ts';

export interface AuthServiceOptions {
  db: Db;
  sessions: Sessions;
  publicUrl: string;
  throttles: Throttles;
  loginMaxPerIpPerMinute: number;
  forgotMaxPerAccountPerHour: number;
  /** Reset-link attempts per client and minute (RECOVERY_MAX_PER_IP_PER_MINUTE). */
  recoveryMaxPerIpPerMinute: number;
  twoFactor: TwoFactor;
  /** PASSWORD_SIGNIN (issue 42): false leaves the password to admins only, as a break-glass way in. */
  passwordSignIn?: boolean;
  /** For a directory session, the provider's logout address « Déconnexion » opens next (modules/directory). */
  directoryLogoutUrl?: (familyId: string) => Promise<string | undefined>;
}

/**
 * Who attempts a sign-in: its client (`clientKey`, per-client limits) and whether it is a device that signed in to an
 * account lately (device-cookie.ts: past the account's ceiling, such a device is still checked).
 */
export interface SignInCaller {
  client: string;
  isTrustedFor(email: string): boolean;
}

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
/** An admin-set (temporary) password opens the account for 72 hours after it was set. */
export const TEMPORARY_PASSWORD_TTL_MS = 72 * 60 * 60 * 1000;

export function createAuthService({
  db,
  sessions,
  publicUrl,
  throttles,
  loginMaxPerIpPerMinute,
  forgotMaxPerAccountPerHour,
  recoveryMaxPerIpPerMinute,
  twoFactor,
  passwordSignIn = true,
  directoryLogoutUrl,
}: AuthServiceOptions) {
  async function permissionsOf(userId: number): Promise<string[]> {
    const result = await db.execute<{ names: string[] }>(sql`select ${permissionNamesOf(userId)} as names`);
    return result.rows[0]?.names ?? [];
  }

  /** Whose password it is, for the policy (name and email may not appear in it). */
  async function ownerOf(userId: number) {
    const [owner] = await db
      .select({ email: users.email, lastname: users.lastname, firstname: users.firstname })
      .from(users)
      .where(eq(users.id, userId));
    if (!owner) throw notFound();
    return owner;
  }

  /**
   * The trigger `users_password_changed` voids the pending reset links; the new password opens the account at once,
   * and the account's address is told.
   */
  async function setPassword(userId: number, password: string, audited: 'password.reset' | 'password.first_change') {
    const password_hash = await hashPassword(password);
    const changedAt = new Date();
    await db.transaction(async (tx) => {
      const [user] = await tx
        .update(users)
        .set({ password_hash, must_change_password: false, updated_at: changedAt })
        .where(eq(users.id, userId))
        .returning({ email: users.email, firstname: users.firstname, lastname: users.lastname });
      await sessions.revokeAllOf(userId, tx);
      await forgetSignInFailures(tx, user.email);
      await recordAudit(tx, { action: audited, actor: { id: userId }, target: { type: 'user', id: userId, label: user.email } });
      await queueAccountNotice(tx, audited === 'password.reset' ? 'password_reset' : 'password_first_change', user, changedAt);
    });
  }

  /** Holds the admin role (PASSWORD_SIGNIN=false keeps the password for them). */
  async function isAdmin(userId: number) {
    const [row] = await db
      .select({ id: roles.id })
      .from(userRoles)
      .innerJoin(roles, eq(roles.id, userRoles.role_id))
      .where(and(eq(userRoles.user_id, userId), eq(roles.name, 'admin'), eq(roles.is_active, true)))
      .limit(1);
    return row !== undefined;
  }

  async function findUserByEmail(email: string) {
    const [user] = await db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
    return user;
  }

  /**
   * True for the first refusal of a minute under `gate`: a flood of refused requests writes one audit row a minute
   * per limit it meets, not one per request.
   */
  async function isFirstRefusal(gate: string) {
    return (await throttles.hit(`audit-throttled:${gate}`, 1, 60)) === undefined;
  }

  /**
   * 429 while the address, this client on this email or the email from all clients must wait (throttles.ts), an email
   * that no account has included.
   */
  async function throttleSignIn(email: string, caller: SignInCaller, userId?: number) {
    const { client } = caller;
    const ipWait = await throttles.hit(`login-ip:${client}`, loginMaxPerIpPerMinute, 60);
    const wait =
      ipWait === undefined
        ? await throttles.claimSignInAttempt(email, client, caller.isTrustedFor(email))
        : { seconds: ipWait, limit: 'ip' as const };
    if (wait === undefined) return;
    const gate = { ip: `login-ip:${client}`, client: `login:${emailKey(email)}:${client}`, account: `login:${emailKey(email)}` }[
      wait.limit
    ];
    if (await isFirstRefusal(gate)) await recordSignInFailure(db, { email, userId, reason: 'throttled', client });
    throw tooManyRequests(tooManyAttemptsMessage(wait.seconds), wait.seconds);
  }

  /** A session for the user whose credentials are all checked: tokens, rights and user. */
  async function signedIn(user: typeof users.$inferSelect, directoryFamily?: string) {
    const tokens = await sessions.start(user.id, directoryFamily);
    await recordAudit(db, {
      action: 'login',
      actor: { id: user.id, email: user.email },
      ...(directoryFamily ? { details: { method: 'directory' } } : {}),
    });
    return { ...tokens, features: await permissionsOf(user.id), user: await userViewOf(db, user.id) };
  }

  /**
   * The job of a request: the link and its mail, or a refusal written in the audit log, at most once a minute per client
   * and reason (jobs queued before issue 40 name no client: written each time). Rows name the client (`clientKey`).
   */
  async function sendResetLink({ email, client }: { email: string; client?: string }) {
    const refused = async (reason: 'throttled' | 'blocked' | 'unknown_email', userId?: number) => {
      if (client !== undefined && !(await isFirstRefusal(`forgot-${reason}:${client}`))) return;
      await recordAudit(db, {
        action: 'password.reset_request',
        result: 'failure',
        actor: { id: userId, email },
        ip: client,
        details: { reason },
      });
    };
    if ((await throttles.hit(`forgot-account:${emailKey(email)}`, forgotMaxPerAccountPerHour, 3600)) !== undefined) {
      return refused('throttled');
    }
    const user = await findUserByEmail(email);
    if (!user?.is_active) return refused(user ? 'blocked' : 'unknown_email', user?.id);
    const token = newOpaqueToken();
    await db.transaction(async (tx) => {
      await tx.insert(passwordResetTokens).values({
        user_id: user.id,
        token_hash: hashToken(token),
        expires_at: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      await enqueueMail(
        tx,
        {
          to: user.email,
          subject: 'Réformes : réinitialisation de votre mot de passe',
          text:
            `Bonjour ${user.firstname} ${user.lastname},\n\n` +
            'Une réinitialisation de votre mot de passe a été demandée. Ouvrez ce lien pour en choisir un nouveau ' +
            '(valable 60 minutes, utilisable une seule fois) :\n\n' +
            `${publicUrl}/auth/recovery-password/${token}\n\n` +
            "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.\n",
        },
        { secretUntil: new Date(Date.now() + RESET_TOKEN_TTL_MS) },
      );
      await recordAudit(tx, { action: 'password.reset_request', actor: { id: user.id, email: user.email }, ip: client });
    });
  }

  const isTemporaryPasswordExpired = (user: typeof users.$inferSelect) =>
    user.must_change_password && user.password_changed_at.getTime() + TEMPORARY_PASSWORD_TTL_MS <= Date.now();

  return {
    permissionsOf,

    /** `GET api/user`: the user with the rights it holds now, so the web app follows a change of profile without signing in again. */
    async currentUser(userId: number, sessionId: string) {
      const [directory] = await db
        .select({ secondFactor: directorySessions.second_factor })
        .from(directorySessions)
        .where(eq(directorySessions.family_id, sessionId));
      return { ...(await userViewOf(db, userId, directory?.secondFactor === true)), features: await permissionsOf(userId) };
    },

    /** Ends the session (its whole refresh-token family) at once. */
    async logout(sessionId: string): Promise<{ logoutUrl?: string }> {
      await sessions.revokeFamily(sessionId);
      await recordAudit(db, { action: 'logout' });
      return { logoutUrl: directoryLogoutUrl ? await directoryLogoutUrl(sessionId) : undefined };
    },

    /**
     * Throttled per address and per email (throttles.ts); an unknown email costs the same work and gets the same
     * answers as a wrong password. Blocked accounts and expired temporary passwords are told only to the right password.
     */
    async login(email: string, password: string, caller: SignInCaller) {
      const { client } = caller;
      await throttleSignIn(email, caller);
      const user = await findUserByEmail(email);
      // An account without a password (created by the directory) costs the same work and gets the same answer.
      const isRightPassword =
        (await verifyPassword(user?.password_hash ?? (await decoyPasswordHash()), password)) && Boolean(user?.password_hash);
      if (!user || !isRightPassword) {
        await recordSignInFailure(db, { email, userId: user?.id, reason: user ? 'wrong_password' : 'unknown_email', client });
        throw unauthenticated(MESSAGES.invalidCredentials);
      }
      // With a second factor, the attempt still counts until the code is right: password and code share one budget.
      if (!user.totp_enabled_at) await forgetSignInFailures(db, email, client);
      if (!user.is_active) {
        await recordSignInFailure(db, { email, userId: user.id, reason: 'blocked', client });
        throw new AppError(403, MESSAGES.accountBlocked);
      }
      if (!passwordSignIn && !(await isAdmin(user.id))) {
        await recordSignInFailure(db, { email, userId: user.id, reason: 'password_signin_off', client });
        throw new AppError(403, DIRECTORY_MESSAGES.passwordSignInAdminsOnly);
      }
      if (isTemporaryPasswordExpired(user)) {
        await recordSignInFailure(db, { email, userId: user.id, reason: 'temporary_expired', client });
        throw unauthenticated(MESSAGES.temporaryPasswordExpired);
      }
      if (user.totp_enabled_at) return { two_factor_required: true as const, challenge_token: twoFactor.challengeFor(user.id) };
      return signedIn(user);
    },

    /**
     * The code step of a sign-in with a second factor: the challenge of the right password, then a TOTP code (never
     * one already used) or an unused recovery code; throttled and counted like a password.
     */
    async loginWithCode(challenge: string, code: string, caller: SignInCaller) {
      const { client } = caller;
      const { userId, family } = twoFactor.userOfChallenge(challenge);
      const [user] = await db.select().from(users).where(eq(users.id, userId));
      if (!user?.totp_enabled_at) throw unauthenticated(TWO_FACTOR_MESSAGES.challengeExpired, ERROR_CODES.twoFactorChallengeExpired);
      await throttleSignIn(user.email, caller, userId);
      if (!user.is_active) {
        await recordSignInFailure(db, { email: user.email, userId, reason: 'blocked', client });
        throw new AppError(403, MESSAGES.accountBlocked);
      }
      const how = await twoFactor.verify(userId, code);
      if (!how) {
        await recordSignInFailure(db, { email: user.email, userId, reason: 'wrong_code', client });
        throw new AppError(
          401,
          TWO_FACTOR_MESSAGES.invalidCode,
          { code: [TWO_FACTOR_MESSAGES.invalidCode] },
          undefined,
          ERROR_CODES.twoFactorInvalidCode,
        );
      }
      await forgetSignInFailures(db, user.email, client);
      if (how === 'recovery') await recordAudit(db, { action: 'two_factor.recovery_used', actor: { id: userId, email: user.email } });
      return signedIn(user, family);
    },

    /**
     * Same answer, in the same time, whether or not the email exists: past the per-client limit 429 (written in the
     * audit log once a minute per client); else the request is queued (one insert for any email), at most once a minute
     * per client and email, and the job queue's worker looks at it after the answer (`handleResetLink`): a flood from
     * one client costs one job per email it names, and an owner asking twice gets the link of the first. Past
     * FORGOT_MAX_PER_ACCOUNT_PER_HOUR requests for one email nothing is sent; the link is single-use, 60 minutes.
     */
    async forgotPassword(email: string, client: string) {
      const wait = await throttles.hit(`forgot-ip:${client}`, loginMaxPerIpPerMinute, 60);
      if (wait !== undefined) {
        if (await isFirstRefusal(`forgot-ip:${client}`)) {
          await recordAudit(db, {
            action: 'password.reset_request',
            result: 'failure',
            actor: { email },
            details: { reason: 'throttled' },
          });
        }
        throw tooManyRequests(MESSAGES.tooManyRequests, wait);
      }
      if ((await throttles.hit(`forgot-job:${client}:${emailKey(email)}`, 1, 60)) !== undefined) return;
      await enqueue(db, 'reset-link', { email, client });
    },

    /** The job of a "Mot de passe oublié" request: the link and its mail, queued together, or a refusal. */
    handleResetLink: sendResetLink,

    /** Throttled per client (RECOVERY_MAX_PER_IP_PER_MINUTE, 429): a wrong link writes an audit row, a refused one once a minute. */
    async recoverPassword(token: string, password: string, client: string) {
      const wait = await throttles.hit(`recovery-ip:${client}`, recoveryMaxPerIpPerMinute, 60);
      if (wait !== undefined) {
        if (await isFirstRefusal(`recovery-ip:${client}`)) {
          await recordAudit(db, { action: 'password.reset', result: 'failure', actor: {}, details: { reason: 'throttled' } });
        }
        throw tooManyRequests(MESSAGES.tooManyRequests, wait);
      }
      const [row] = await db
        .select()
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.token_hash, hashToken(token)),
            isNull(passwordResetTokens.used_at),
            gt(passwordResetTokens.expires_at, new Date()),
          ),
        );
      if (!row) {
        await recordAudit(db, { action: 'password.reset', result: 'failure', actor: {}, details: { reason: 'invalid_token' } });
        throw new AppError(400, MESSAGES.invalidResetToken);
      }
      // Before the claim, so that a refused password leaves the link usable for a better one.
      assertAcceptablePassword(password, await ownerOf(row.user_id), 'password');
      // Claiming the token first makes a second concurrent use fail.
      const claimed = await db
        .update(passwordResetTokens)
        .set({ used_at: new Date() })
        .where(and(eq(passwordResetTokens.user_id, row.user_id), isNull(passwordResetTokens.used_at)))
        .returning({ id: passwordResetTokens.id });
      if (!claimed.some((claim) => claim.id === row.id)) {
        await recordAudit(db, {
          action: 'password.reset',
          result: 'failure',
          actor: { id: row.user_id },
          details: { reason: 'invalid_token' },
        });
        throw new AppError(400, MESSAGES.invalidResetToken);
      }
      await setPassword(row.user_id, password, 'password.reset');
    },

    /** Ends the temporary-password state; every session of the user ends with it (spec §8: forced logout). */
    async changeFirstPassword(userId: number, password: string) {
      // Without a temporary password to replace, this route would let any session change the password without the old one.
      const [user] = await db.select({ must_change_password: users.must_change_password }).from(users).where(eq(users.id, userId));
      if (!user?.must_change_password) throw forbidden();
      assertAcceptablePassword(password, await ownerOf(userId), 'password');
      await setPassword(userId, password, 'password.first_change');
    },

    /**
     * A change of email needs the current password (a stolen session must not redirect the reset links), counted like
     * a sign-in (reauthenticate); it ends the pending reset links and the account's other sessions, and tells the old
     * address. The other fields change without it.
     */
    async updateProfile(userId: number, input: UserUpdateInput, caller: { client: string; sessionId: string }) {
      const { current_password, ...changes } = input;
      const [current] = await db.select().from(users).where(eq(users.id, userId));
      if (!current) throw notFound();
      const emailChanges = isEmailChange(current.email, changes.email);
      if (emailChanges) {
        if (!current_password) throw invalid({ current_password: [MESSAGES.currentPasswordRequired] });
        await reauthenticate(
          { db, throttles },
          {
            userId,
            client: caller.client,
            route: 'api/user-update',
            password: current_password,
            refusal: invalid({ current_password: [MESSAGES.currentPasswordWrong] }),
          },
        );
      }
      const [taken] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(sql`lower(${users.email})`, changes.email.toLowerCase()), ne(users.id, userId)));
      if (taken) throw conflict(MESSAGES.emailTaken);
      const changedAt = new Date();
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ ...changes, updated_at: changedAt })
          .where(eq(users.id, userId));
        if (emailChanges) {
          await tx
            .update(passwordResetTokens)
            .set({ used_at: changedAt })
            .where(and(eq(passwordResetTokens.user_id, userId), isNull(passwordResetTokens.used_at)));
          await revokeOtherSessions(tx, userId, caller.sessionId);
          await recordAudit(tx, {
            action: 'user.update',
            target: { type: 'user', id: userId, label: changes.email },
            details: { previous_email: current.email },
          });
          // To the old address, once the change is committed.
          await queueAccountNotice(tx, 'email_changed', current, changedAt);
        }
      });
      return userViewOf(db, userId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
