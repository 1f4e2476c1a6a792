import { MESSAGES, type UserUpdateInput } from '@reformes/domain';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { passwordResetTokens, users } from '../../db/schema/index.ts';
import { AppError, conflict, forbidden, unauthenticated } from '../../http/app-error.ts';
import { permissionNamesOf } from '../../http/guard.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { loadUserView } from './current-user.ts';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password.ts';
import { hashToken, newOpaqueToken, type Sessions } from './sessions.ts';

export interface AuthServiceOptions {
  db: Db;
  sessions: Sessions;
  mailer: Mailer;
  publicUrl: string;
  maxFailures: number;
  lockMinutes: number;
}

const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

export function createAuthService({ db, sessions, mailer, publicUrl, maxFailures, lockMinutes }: AuthServiceOptions) {
  async function permissionsOf(userId: number): Promise<string[]> {
    const result = await db.execute<{ names: string[] }>(sql`select ${permissionNamesOf(userId)} as names`);
    return result.rows[0]?.names ?? [];
  }

  async function setPassword(userId: number, password: string) {
    const password_hash = await hashPassword(password);
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ password_hash, must_change_password: false, failed_logins: 0, locked_until: null, updated_at: new Date() })
        .where(eq(users.id, userId));
      await sessions.revokeAllOf(userId, tx);
    });
  }

  return {
    permissionsOf,

    /** Per-account throttling: after `maxFailures` wrong passwords the account waits `lockMinutes`. */
    async login(email: string, password: string) {
      const [user] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
      if (!user) {
        await verifyPassword(await decoyPasswordHash(), password);
        throw unauthenticated(MESSAGES.invalidCredentials);
      }
      if (user.locked_until && user.locked_until.getTime() > Date.now()) throw new AppError(429, MESSAGES.tooManyAttempts);
      if (!(await verifyPassword(user.password_hash, password))) {
        const failures = user.failed_logins + 1;
        const locked = failures >= maxFailures;
        await db
          .update(users)
          .set({
            failed_logins: locked ? 0 : failures,
            locked_until: locked ? new Date(Date.now() + lockMinutes * 60_000) : user.locked_until,
          })
          .where(eq(users.id, user.id));
        throw locked ? new AppError(429, MESSAGES.tooManyAttempts) : unauthenticated(MESSAGES.invalidCredentials);
      }
      if (!user.is_active) throw new AppError(403, MESSAGES.accountBlocked);
      if (user.failed_logins > 0 || user.locked_until) {
        await db.update(users).set({ failed_logins: 0, locked_until: null }).where(eq(users.id, user.id));
      }
      const tokens = await sessions.start(user.id);
      return { ...tokens, features: await permissionsOf(user.id), user: await loadUserView(db, user.id) };
    },

    /** Same answer whether or not the email exists; the link is single-use and lasts 60 minutes. */
    async forgotPassword(email: string) {
      const [user] = await db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()));
      if (!user?.is_active) return;
      const token = newOpaqueToken();
      await db.insert(passwordResetTokens).values({
        user_id: user.id,
        token_hash: hashToken(token),
        expires_at: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      await mailer.send({
        to: user.email,
        subject: 'Réformes : réinitialisation de votre mot de passe',
        text:
          `Bonjour ${user.firstname} ${user.lastname},\n\n` +
          'Une réinitialisation de votre mot de passe a été demandée. Ouvrez ce lien pour en choisir un nouveau ' +
          '(valable 60 minutes, utilisable une seule fois) :\n\n' +
          `${publicUrl}/auth/recovery-password/${token}\n\n` +
          "Si vous n'êtes pas à l'origine de cette demande, ignorez ce message.\n",
      });
    },

    async recoverPassword(token: string, password: string) {
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
      if (!row) throw new AppError(400, MESSAGES.invalidResetToken);
      // Claiming the token first makes a second concurrent use fail.
      const claimed = await db
        .update(passwordResetTokens)
        .set({ used_at: new Date() })
        .where(and(eq(passwordResetTokens.user_id, row.user_id), isNull(passwordResetTokens.used_at)))
        .returning({ id: passwordResetTokens.id });
      if (!claimed.some((claim) => claim.id === row.id)) throw new AppError(400, MESSAGES.invalidResetToken);
      await setPassword(row.user_id, password);
    },

    /** Ends the temporary-password state; every session of the user ends with it (spec §8: forced logout). */
    async changeFirstPassword(userId: number, password: string) {
      // Without a temporary password to replace, this route would let any session change the password without the old one.
      const [user] = await db.select({ must_change_password: users.must_change_password }).from(users).where(eq(users.id, userId));
      if (!user?.must_change_password) throw forbidden();
      await setPassword(userId, password);
    },

    async updateProfile(userId: number, input: UserUpdateInput) {
      const [taken] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(sql`lower(${users.email})`, input.email.toLowerCase()), ne(users.id, userId)));
      if (taken) throw conflict(MESSAGES.emailTaken);
      await db
        .update(users)
        .set({ ...input, updated_at: new Date() })
        .where(eq(users.id, userId));
      return loadUserView(db, userId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
