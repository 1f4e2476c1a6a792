import {
  ACCOUNT_MESSAGES,
  changePasswordSchema,
  envelopeShape,
  idParamsSchema,
  limitedText,
  listShape,
  MESSAGES,
  messageShape,
  requiredText,
  stateParamSchema,
  TEXT_LIMITS,
  userSettingAnswer,
  userSettingShape,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, forbidden, invalid } from '../../http/app-error.ts';
import { ok, plainList } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { hasPath, readUpload } from '../../http/multipart.ts';
import { imageTypeOf } from '../../storage/file-store.ts';
import { type AccountService, SIGNATURE_DISK, SIGNATURE_FOLDER } from './account.service.ts';

const fileLookupSchema = z.object({
  folder: limitedText(TEXT_LIMITS.label, 'Le dossier est requis'),
  disk: limitedText(TEXT_LIMITS.label).default(SIGNATURE_DISK),
  filename: requiredText('Le nom du fichier est requis'),
});

export interface AccountRoutesOptions {
  account: AccountService;
  /** SIGNATURE_MAX_MB, in bytes. */
  maxBytes: number;
}

/** Spec §7 "Auth and account" (change-password) and "Files and user settings". */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, { account, maxBytes }) => {
  // One's own password is part of having an account, like `api/user` and `logout`: any signed-in user,
  // whatever its role (docs/decisions-issue13-roles.md).
  app.post(
    '/api/change-password',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['Mon compte'], summary: 'Changer son mot de passe', body: changePasswordSchema, response: { 200: messageShape } },
    },
    async (request) => {
      await account.changePassword(authOf(request).userId, request.ip, request.body.old_password, request.body.new_password);
      return { message: ACCOUNT_MESSAGES.passwordChanged };
    },
  );

  const settingsTags = ['Paramètres utilisateur'];
  const can = (action: 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status') => ({
    access: { feature: 'user-settings' as const, action },
  });

  /** The multipart `signature` field: a PNG or JPEG within the size limit, saved as the caller's signature. */
  async function saveSignature(userId: number, request: import('fastify').FastifyRequest) {
    await account.assertSigner(userId);
    const { file } = await readUpload(request, {
      maxBytes,
      field: 'signature',
      notMultipart: () => invalid({ signature: [ACCOUNT_MESSAGES.signatureRequired] }),
      checkFilename: (filename) => {
        if (hasPath(filename)) throw invalid({ signature: ['Le nom du fichier ne doit pas contenir de chemin'] });
      },
    });
    if (!file || file.content.length === 0) throw invalid({ signature: [ACCOUNT_MESSAGES.signatureRequired] });
    const type = imageTypeOf(file.content);
    if (!type) throw new AppError(415, ACCOUNT_MESSAGES.signatureImagesOnly);
    return account.saveSignature(userId, file.content, type);
  }

  app.get(
    '/user-settings',
    { config: can('list'), schema: { tags: settingsTags, response: { 200: listShape(userSettingShape) } } },
    async (request) => plainList(await account.listSettings(authOf(request))),
  );

  app.get(
    '/user-settings-by-state/:state',
    {
      config: can('list'),
      schema: { tags: settingsTags, params: z.object({ state: z.enum(['0', '1']) }), response: { 200: listShape(userSettingShape) } },
    },
    async (request) => plainList(await account.settingsByState(authOf(request), request.params.state === '1')),
  );

  app.get(
    '/user-settings/:id',
    { config: can('show'), schema: { tags: settingsTags, params: idParamsSchema, response: { 200: userSettingAnswer } } },
    async (request) => ok(await account.settingOf(authOf(request), request.params.id), MESSAGES.found),
  );

  // Create and update both upload the signature of the caller ("Charger ma signature").
  app.post(
    '/user-settings',
    {
      config: can('add'),
      schema: { tags: settingsTags, summary: 'Charger sa signature (multipart signature)', response: { 201: userSettingAnswer } },
    },
    async (request, reply) => {
      reply.status(201);
      return ok(await saveSignature(authOf(request).userId, request), ACCOUNT_MESSAGES.signatureSaved);
    },
  );
  app.post(
    '/user-settings/:id',
    {
      config: can('edit'),
      schema: {
        tags: settingsTags,
        summary: 'Remplacer sa signature (_method=patch)',
        params: idParamsSchema,
        response: { 200: userSettingAnswer },
      },
    },
    async (request) => {
      const auth = authOf(request);
      await account.ownSettingOf(auth, request.params.id);
      return ok(await saveSignature(auth.userId, request), ACCOUNT_MESSAGES.signatureSaved);
    },
  );

  app.delete(
    '/user-settings/:id',
    { config: can('delete'), schema: { tags: settingsTags, params: idParamsSchema, response: { 200: messageShape } } },
    async (request) => {
      await account.removeSetting(authOf(request), request.params.id);
      return { message: MESSAGES.deleted };
    },
  );

  app.get(
    '/user-settings-set-state/:id/state/:state',
    { config: can('status'), schema: { tags: settingsTags, params: stateParamSchema, response: { 200: userSettingAnswer } } },
    async (request) => {
      const isActive = request.params.state === '1';
      return ok(
        await account.setSettingActive(authOf(request), request.params.id, isActive),
        isActive ? MESSAGES.activated : MESSAGES.deactivated,
      );
    },
  );

  /** `POST get-file` / `get-file2`: a whitelisted folder, the caller's own signature (any for admin), as a data URL. */
  for (const url of ['/get-file', '/get-file2']) {
    app.post(
      url,
      {
        config: { access: { feature: 'user-settings', action: 'list' } },
        schema: {
          tags: settingsTags,
          summary: 'Image stockée en data URL',
          body: fileLookupSchema,
          response: { 200: envelopeShape(z.array(z.string())) },
        },
      },
      async (request) => {
        const { folder, disk, filename } = request.body;
        if (folder !== SIGNATURE_FOLDER || disk !== SIGNATURE_DISK) throw forbidden(ACCOUNT_MESSAGES.folderNotAllowed);
        if (!/^[a-f0-9-]+\.(png|jpg)$/i.test(filename)) throw invalid({ filename: ['Nom de fichier invalide'] });
        return { message: MESSAGES.found, data: [await account.signatureDataUrl(authOf(request), filename)] };
      },
    );
  }
};
