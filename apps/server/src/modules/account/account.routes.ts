import { ACCOUNT_MESSAGES, MESSAGES, ACCOUNT_ROUTES as ROUTES, SIGNATURE_DISK, SIGNATURE_FOLDER } from '@reformes/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, forbidden, invalid } from '../../http/app-error.ts';
import { clientOf } from '../../http/client-key.ts';
import { deleted, ok, plainList, toggled } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { hasPath, readUpload } from '../../http/multipart.ts';
import { type RouteHandler, routeTable } from '../../http/route-table.ts';
import { imageTypeOf } from '../../storage/file-store.ts';
import type { AccountService } from './account.service.ts';

export interface AccountRoutesOptions {
  account: AccountService;
  /** SIGNATURE_MAX_MB, in bytes. */
  maxBytes: number;
}

/** Spec §7 "Auth and account" (change-password) and "Files and user settings": the handlers of ACCOUNT_ROUTES. */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, { account, maxBytes }) => {
  const on = routeTable(app);

  /** The multipart `signature` field: a PNG or JPEG within the size limit, saved as the caller's signature. */
  async function saveSignature(userId: number, request: FastifyRequest) {
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

  on(ROUTES.changePassword, async (request) => {
    await account.changePassword(authOf(request).userId, clientOf(request), request.body.old_password, request.body.new_password);
    return { message: ACCOUNT_MESSAGES.passwordChanged };
  });
  on(ROUTES.settings, async (request) => plainList(await account.listSettings(authOf(request))));
  on(ROUTES.settingsByState, async (request) => plainList(await account.settingsByState(authOf(request), request.params.state === '1')));
  on(ROUTES.setting, async (request) => ok(await account.settingOf(authOf(request), request.params.id), MESSAGES.found));
  on(ROUTES.uploadSignature, async (request) => ok(await saveSignature(authOf(request).userId, request), ACCOUNT_MESSAGES.signatureSaved));
  on(ROUTES.replaceSignature, async (request) => {
    const auth = authOf(request);
    await account.ownSettingOf(auth, request.params.id);
    return ok(await saveSignature(auth.userId, request), ACCOUNT_MESSAGES.signatureSaved);
  });
  on(ROUTES.removeSetting, (request) => deleted(account.removeSetting(authOf(request), request.params.id)));
  on(ROUTES.setSettingState, (request) =>
    toggled(request.params.state, (isActive) => account.setSettingActive(authOf(request), request.params.id, isActive)),
  );
  /** `get-file` and `get-file2`: a whitelisted folder, the caller's own signature (any for admin), as a data URL. */
  const signatureDataUrl: RouteHandler<typeof ROUTES.getFile> = async (request) => {
    const { folder, disk, filename } = request.body;
    if (folder !== SIGNATURE_FOLDER || disk !== SIGNATURE_DISK) throw forbidden(ACCOUNT_MESSAGES.folderNotAllowed);
    if (!/^[a-f0-9-]+\.(png|jpg)$/i.test(filename)) throw invalid({ filename: ['Nom de fichier invalide'] });
    return { message: MESSAGES.found, data: [await account.signatureDataUrl(authOf(request), filename)] };
  };
  on(ROUTES.getFile, signatureDataUrl);
  on<typeof ROUTES.getFile2>(ROUTES.getFile2, signatureDataUrl);
};
