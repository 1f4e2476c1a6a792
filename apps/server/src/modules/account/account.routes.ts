import {
  ACCOUNT_MESSAGES,
  changePasswordSchema,
  idParamsSchema,
  limitedText,
  MESSAGES,
  requiredText,
  stateParamSchema,
  TEXT_LIMITS,
} from '@reformes/domain';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { userSettings, users } from '../../db/schema/index.ts';
import { AppError, fileTooLarge, forbidden, invalid, notFound } from '../../http/app-error.ts';
import { ok, plainList } from '../../http/envelope.ts';
import { type AuthContext, authOf } from '../../http/guard.ts';
import { readingMultipart } from '../../http/multipart.ts';
import type { FileStore } from '../../storage/file-store.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { assertAcceptablePassword } from '../auth/password-policy.ts';
import type { Sessions } from '../auth/sessions.ts';

/** Where signatures live (architecture §4): disk "local", folder "director". */
export const SIGNATURE_DISK = 'local';
export const SIGNATURE_FOLDER = 'director';

// "0,5" rather than a rounded "1" when SIGNATURE_MAX_MB is below one megabyte.

type ImageType = { mime: 'image/png' | 'image/jpeg'; extension: 'png' | 'jpg' };

/** PNG or JPEG by their first bytes; anything else (SVG, PDF, renamed files) is refused. */
export function imageTypeOf(content: Buffer): ImageType | undefined {
  if (content.length > 8 && content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { mime: 'image/png', extension: 'png' };
  if (content.length > 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff)
    return { mime: 'image/jpeg', extension: 'jpg' };
  return undefined;
}

const fileLookupSchema = z.object({
  folder: limitedText(TEXT_LIMITS.label, 'Le dossier est requis'),
  disk: limitedText(TEXT_LIMITS.label).default(SIGNATURE_DISK),
  filename: requiredText('Le nom du fichier est requis'),
});

export interface AccountRoutesOptions {
  db: Db;
  files: FileStore;
  sessions: Sessions;
  maxBytes: number;
}

/** Spec §7 "Auth and account" (change-password) and "Files and user settings". */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, { db, files, sessions, maxBytes }) => {
  // One's own password is part of having an account, like `api/user` and `logout`: any signed-in user,
  // whatever its role (docs/decisions-issue13-roles.md).
  app.post(
    '/api/change-password',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['Mon compte'], summary: 'Changer son mot de passe', body: changePasswordSchema },
    },
    async (request) => {
      const auth = authOf(request);
      const [user] = await db
        .select({ password_hash: users.password_hash, email: users.email, lastname: users.lastname, firstname: users.firstname })
        .from(users)
        .where(eq(users.id, auth.userId));
      if (!user || !(await verifyPassword(user.password_hash, request.body.old_password))) {
        await recordAudit(db, { action: 'password.change', result: 'failure', details: { reason: 'wrong_password' } });
        throw invalid({ old_password: [ACCOUNT_MESSAGES.wrongOldPassword] }, ACCOUNT_MESSAGES.wrongOldPassword);
      }
      assertAcceptablePassword(request.body.new_password, user, 'new_password');
      const password_hash = await hashPassword(request.body.new_password);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ password_hash, must_change_password: false, updated_at: new Date() }).where(eq(users.id, auth.userId));
        // Every session ends, this one too: the user signs in again with the new password.
        await sessions.revokeAllOf(auth.userId, tx);
        await recordAudit(tx, { action: 'password.change', target: { type: 'user', id: auth.userId } });
      });
      return { message: ACCOUNT_MESSAGES.passwordChanged };
    },
  );

  const settingsTags = ['Paramètres utilisateur'];
  const can = (action: 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status') => ({
    access: { feature: 'user-settings' as const, action },
  });
  const isAdmin = (auth: AuthContext) => auth.role === 'admin';

  async function settingOf(auth: AuthContext, id: number) {
    const [row] = await db.select().from(userSettings).where(eq(userSettings.id, id));
    if (!row || (row.user_id !== auth.userId && !isAdmin(auth))) throw notFound();
    return row;
  }

  /** Reads the multipart `signature` field: a PNG or JPEG within the size limit. */
  async function readSignature(request: import('fastify').FastifyRequest) {
    if (!request.isMultipart()) throw invalid({ signature: [ACCOUNT_MESSAGES.signatureRequired] });
    let content: Buffer | undefined;
    // preservePath: busboy would otherwise strip "../" from the file name before the check below could refuse it.
    for await (const part of request.parts({ preservePath: true, limits: { fileSize: maxBytes, files: 1 } })) {
      if (part.type === 'file' && part.fieldname === 'signature') {
        if (/[/\\]|\.\./.test(part.filename)) throw invalid({ signature: ['Le nom du fichier ne doit pas contenir de chemin'] });
        content = await part.toBuffer().catch((error: { code?: string }) => {
          if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(maxBytes);
          throw error;
        });
      } else if (part.type === 'file') {
        await part.toBuffer();
      }
    }
    if (!content || content.length === 0) throw invalid({ signature: [ACCOUNT_MESSAGES.signatureRequired] });
    const type = imageTypeOf(content);
    if (!type) throw new AppError(415, ACCOUNT_MESSAGES.signatureImagesOnly);
    return { content, type };
  }

  async function saveSignature(auth: AuthContext, request: import('fastify').FastifyRequest) {
    const [user] = await db.select({ is_signer: users.is_signer }).from(users).where(eq(users.id, auth.userId));
    if (!user?.is_signer) throw forbidden(ACCOUNT_MESSAGES.notSigner);
    const { content, type } = await readingMultipart(() => readSignature(request));
    const stored = await files.save(SIGNATURE_FOLDER, content, type.extension);
    const [previous] = await db.select().from(userSettings).where(eq(userSettings.user_id, auth.userId));
    const [row] = await db
      .insert(userSettings)
      .values({ user_id: auth.userId, signature: stored })
      .onConflictDoUpdate({ target: userSettings.user_id, set: { signature: stored, updated_at: new Date() } })
      .returning();
    if (previous?.signature) await files.remove(SIGNATURE_FOLDER, previous.signature).catch(() => undefined);
    return row;
  }

  app.get('/user-settings', { config: can('list'), schema: { tags: settingsTags } }, async (request) => {
    const auth = authOf(request);
    const query = db.select().from(userSettings).$dynamic();
    return plainList(await (isAdmin(auth) ? query : query.where(eq(userSettings.user_id, auth.userId))));
  });

  app.get(
    '/user-settings-by-state/:state',
    { config: can('list'), schema: { tags: settingsTags, params: z.object({ state: z.enum(['0', '1']) }) } },
    async (request) => {
      const auth = authOf(request);
      const rows = await db
        .select()
        .from(userSettings)
        .where(eq(userSettings.is_active, request.params.state === '1'));
      return plainList(rows.filter((row) => isAdmin(auth) || row.user_id === auth.userId));
    },
  );

  app.get('/user-settings/:id', { config: can('show'), schema: { tags: settingsTags, params: idParamsSchema } }, async (request) =>
    ok(await settingOf(authOf(request), request.params.id), MESSAGES.found),
  );

  // Create and update both upload the signature of the caller ("Charger ma signature").
  app.post(
    '/user-settings',
    { config: can('add'), schema: { tags: settingsTags, summary: 'Charger sa signature (multipart signature)' } },
    async (request, reply) => {
      reply.status(201);
      return ok(await saveSignature(authOf(request), request), ACCOUNT_MESSAGES.signatureSaved);
    },
  );
  app.post(
    '/user-settings/:id',
    { config: can('edit'), schema: { tags: settingsTags, summary: 'Remplacer sa signature (_method=patch)', params: idParamsSchema } },
    async (request) => {
      const auth = authOf(request);
      const setting = await settingOf(auth, request.params.id);
      if (setting.user_id !== auth.userId) throw forbidden();
      return ok(await saveSignature(auth, request), ACCOUNT_MESSAGES.signatureSaved);
    },
  );

  app.delete('/user-settings/:id', { config: can('delete'), schema: { tags: settingsTags, params: idParamsSchema } }, async (request) => {
    const setting = await settingOf(authOf(request), request.params.id);
    await db.delete(userSettings).where(eq(userSettings.id, setting.id));
    if (setting.signature) await files.remove(SIGNATURE_FOLDER, setting.signature).catch(() => undefined);
    return { message: MESSAGES.deleted };
  });

  app.get(
    '/user-settings-set-state/:id/state/:state',
    { config: can('status'), schema: { tags: settingsTags, params: stateParamSchema } },
    async (request) => {
      const setting = await settingOf(authOf(request), request.params.id);
      const [row] = await db
        .update(userSettings)
        .set({ is_active: request.params.state === '1', updated_at: new Date() })
        .where(eq(userSettings.id, setting.id))
        .returning();
      return ok(row, request.params.state === '1' ? MESSAGES.activated : MESSAGES.deactivated);
    },
  );

  /** `POST get-file` / `get-file2`: a whitelisted folder, the caller's own signature (any for admin), as a data URL. */
  for (const url of ['/get-file', '/get-file2']) {
    app.post(
      url,
      {
        config: { access: { feature: 'user-settings', action: 'list' } },
        schema: { tags: settingsTags, summary: 'Image stockée en data URL', body: fileLookupSchema },
      },
      async (request) => {
        const auth = authOf(request);
        const { folder, disk, filename } = request.body;
        if (folder !== SIGNATURE_FOLDER || disk !== SIGNATURE_DISK) throw forbidden(ACCOUNT_MESSAGES.folderNotAllowed);
        if (!/^[a-f0-9-]+\.(png|jpg)$/i.test(filename)) throw invalid({ filename: ['Nom de fichier invalide'] });
        const [owner] = await db.select({ user_id: userSettings.user_id }).from(userSettings).where(eq(userSettings.signature, filename));
        if (!owner || (owner.user_id !== auth.userId && !isAdmin(auth))) throw notFound(ACCOUNT_MESSAGES.fileNotAllowed);
        if (!files.exists(SIGNATURE_FOLDER, filename)) throw notFound(ACCOUNT_MESSAGES.fileNotAllowed);
        const content = await files.read(SIGNATURE_FOLDER, filename);
        const type = imageTypeOf(content);
        if (!type) throw new AppError(415, ACCOUNT_MESSAGES.signatureImagesOnly);
        return { message: MESSAGES.found, data: [`data:${type.mime};base64,${content.toString('base64')}`] };
      },
    );
  }
};
