import { ACCOUNT_MESSAGES, isAdminRole, SIGNATURE_FOLDER } from '@reformes/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { userSettings, users } from '../../db/schema/index.ts';
import { AppError, forbidden, invalid, notFound } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/guard.ts';
import { type DocumentStore, type ImageType, imageTypeOf } from '../../storage/file-store.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { queueAccountNotice } from '../auth/account-notices.ts';
import { reauthenticate } from '../auth/account-security.ts';
import { hashPassword } from '../auth/password.ts';
import { assertAcceptablePassword } from '../auth/password-policy.ts';
import type { Sessions } from '../auth/sessions.ts';
import type { Throttles } from '../auth/throttles.ts';

/** Admin reads and manages every user's signature; the others their own only. */
const seesEverySetting = (auth: AuthContext) => isAdminRole(auth.role);

export interface AccountServiceOptions {
  db: Db;
  files: DocumentStore;
  sessions: Sessions;
  throttles: Throttles;
}

/** One's own password and the signature settings (spec §7 "Auth and account", "Files and user settings"). */
export function createAccountService({ db, files, sessions, throttles }: AccountServiceOptions) {
  /** The setting if the caller may see it (its own, or any for admin); otherwise 404. */
  async function settingOf(auth: AuthContext, id: number) {
    const [row] = await db.select().from(userSettings).where(eq(userSettings.id, id));
    if (!row || (row.user_id !== auth.userId && !seesEverySetting(auth))) throw notFound();
    return row;
  }

  return {
    /**
     * Checks the current password, applies the policy, then ends every session of the user, this one too, and tells
     * the account's address. The old password is checked first, counted like a sign-in (reauthenticate): the policy
     * speaks only to whoever typed it right, so a stolen session learns nothing of a guess but "wrong", at sign-in speed.
     */
    async changePassword(userId: number, client: string, oldPassword: string, newPassword: string) {
      const [user] = await db
        .select({ email: users.email, lastname: users.lastname, firstname: users.firstname })
        .from(users)
        .where(eq(users.id, userId));
      if (!user) throw notFound();
      await reauthenticate(
        { db, throttles },
        {
          userId,
          client,
          route: 'api/change-password',
          audited: 'password.change',
          password: oldPassword,
          refusal: invalid({ old_password: [ACCOUNT_MESSAGES.wrongOldPassword] }, ACCOUNT_MESSAGES.wrongOldPassword),
        },
      );
      assertAcceptablePassword(newPassword, user, 'new_password');
      const password_hash = await hashPassword(newPassword);
      const changedAt = new Date();
      await db.transaction(async (tx) => {
        await tx.update(users).set({ password_hash, must_change_password: false, updated_at: changedAt }).where(eq(users.id, userId));
        // Every session ends, this one too: the user signs in again with the new password.
        await sessions.revokeAllOf(userId, tx);
        await recordAudit(tx, { action: 'password.change', target: { type: 'user', id: userId } });
        await queueAccountNotice(tx, 'password_changed', user, changedAt);
      });
    },

    async listSettings(auth: AuthContext) {
      const query = db.select().from(userSettings).$dynamic();
      return seesEverySetting(auth) ? query : query.where(eq(userSettings.user_id, auth.userId));
    },

    async settingsByState(auth: AuthContext, isActive: boolean) {
      const rows = await db.select().from(userSettings).where(eq(userSettings.is_active, isActive));
      return rows.filter((row) => seesEverySetting(auth) || row.user_id === auth.userId);
    },

    settingOf,

    /** Replacing a setting is its owner's alone, admin included: 404 out of reach, 403 for someone else's. */
    async ownSettingOf(auth: AuthContext, id: number) {
      const setting = await settingOf(auth, id);
      if (setting.user_id !== auth.userId) throw forbidden();
      return setting;
    },

    /** Only a signer ("is_signer") has a signature; checked before the upload is read. */
    async assertSigner(userId: number) {
      const [user] = await db.select({ is_signer: users.is_signer }).from(users).where(eq(users.id, userId));
      if (!user?.is_signer) throw forbidden(ACCOUNT_MESSAGES.notSigner);
    },

    /** Stores the caller's new signature (a checked PNG or JPEG), then removes the one it replaces. */
    async saveSignature(userId: number, content: Buffer, type: ImageType) {
      const stored = await files.save(SIGNATURE_FOLDER, content, type.extension);
      const [previous] = await db.select().from(userSettings).where(eq(userSettings.user_id, userId));
      const [row] = await db
        .insert(userSettings)
        .values({ user_id: userId, signature: stored })
        .onConflictDoUpdate({ target: userSettings.user_id, set: { signature: stored, updated_at: new Date() } })
        .returning();
      if (previous?.signature) await files.remove(SIGNATURE_FOLDER, previous.signature).catch(() => undefined);
      return row;
    },

    async removeSetting(auth: AuthContext, id: number) {
      const setting = await settingOf(auth, id);
      await db.delete(userSettings).where(eq(userSettings.id, setting.id));
      if (setting.signature) await files.remove(SIGNATURE_FOLDER, setting.signature).catch(() => undefined);
    },

    async setSettingActive(auth: AuthContext, id: number, isActive: boolean) {
      const setting = await settingOf(auth, id);
      const [row] = await db
        .update(userSettings)
        .set({ is_active: isActive, updated_at: new Date() })
        .where(eq(userSettings.id, setting.id))
        .returning();
      return row;
    },

    /** A stored signature as a data URL: the caller's own (any for admin); 404 otherwise or when the file is gone. */
    async signatureDataUrl(auth: AuthContext, filename: string) {
      const [owner] = await db.select({ user_id: userSettings.user_id }).from(userSettings).where(eq(userSettings.signature, filename));
      if (!owner || (owner.user_id !== auth.userId && !seesEverySetting(auth))) throw notFound(ACCOUNT_MESSAGES.fileNotAllowed);
      if (!(await files.exists(SIGNATURE_FOLDER, filename))) throw notFound(ACCOUNT_MESSAGES.fileNotAllowed);
      const content = await files.read(SIGNATURE_FOLDER, filename);
      const type = imageTypeOf(content);
      if (!type) throw new AppError(415, ACCOUNT_MESSAGES.signatureImagesOnly);
      return `data:${type.mime};base64,${content.toString('base64')}`;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
