import {
  envelopeShape,
  fileNameField,
  ID_MAX,
  idParamsSchema,
  MESSAGES,
  messageShape,
  REFORME_MESSAGES,
  uploadedFileShape,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, invalid } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { hasPath, readUpload } from '../../http/multipart.ts';
import { isPdf, pdfProblemOf } from '../../storage/file-store.ts';
import type { FilesService } from './files.service.ts';

const tags = ['Fichiers joints'];

/** A name the user gives or the browser sends: a label only, never with a path in it. */
function isPathLike(name: string): boolean {
  return hasPath(name) || name.includes('\0');
}

export interface FilesRoutesOptions {
  files: FilesService;
  maxBytes: number;
}

/**
 * PDF attachments (spec §7 `files/`): uploaded before or after the reform exists, served only within scope.
 * An upload no reform claims within a day is removed, at start and at every upload.
 */
export const filesRoutes: FastifyPluginAsyncZod<FilesRoutesOptions> = async (app, { files, maxBytes }) => {
  app.addHook('onReady', async () => {
    await files.purgeStale().catch((error) => app.log.warn({ err: error }, 'purge des fichiers en attente impossible'));
  });

  app.post(
    '/files',
    {
      config: { access: { feature: 'files', action: 'add' } },
      schema: {
        tags,
        summary: 'Charger un PDF (multipart name_file, file, reforme_id?)',
        response: { 201: envelopeShape(uploadedFileShape) },
      },
    },
    async (request, reply) => {
      const auth = authOf(request);
      const { fields, file } = await readUpload(request, { maxBytes, notMultipart: () => new AppError(415, REFORME_MESSAGES.pdfOnly) });
      const name = fileNameField.safeParse(fields.name_file ?? '');
      const nameFile = name.data ?? '';
      const errors: Record<string, string[]> = {};
      if (!name.success) errors.name_file = name.error.issues.map((issue) => issue.message);
      else if (isPathLike(nameFile)) errors.name_file = [REFORME_MESSAGES.pathLikeName];
      if (!file || file.content.length === 0) errors.file = [REFORME_MESSAGES.file];
      else if (isPathLike(file.filename)) errors.file = [REFORME_MESSAGES.pathLikeName];
      if (Object.keys(errors).length > 0) throw invalid(errors);
      if (!file || !isPdf(file.content)) throw new AppError(415, REFORME_MESSAGES.pdfOnly);
      const problem = pdfProblemOf(file.content);
      if (problem) throw invalid({ file: [problem === 'markup' ? REFORME_MESSAGES.pdfActiveContent : REFORME_MESSAGES.pdfIncomplete] });

      const reformeId = fields.reforme_id ? Number(fields.reforme_id) : null;
      if (reformeId !== null && (!Number.isInteger(reformeId) || reformeId <= 0 || reformeId > ID_MAX))
        throw invalid({ reforme_id: ['Identifiant invalide'] });
      const added = await files.add(auth, { reformeId, nameFile, content: file.content, filename: file.filename });
      reply.status(201);
      return ok(added, REFORME_MESSAGES.fileUploaded);
    },
  );

  // The `chemin` of every attachment (file-chemin.ts) points here.
  app.get(
    '/files/:id',
    {
      config: { access: { feature: 'files', action: 'show' }, fileAnswer: 'application/pdf' },
      schema: { tags, summary: 'Voir le fichier (PDF)', params: idParamsSchema },
    },
    async (request, reply) => {
      const file = await files.download(authOf(request), request.params.id);
      const downloadName = `${file.name_file.replace(/[^\p{L}\p{N} ._-]/gu, '_')}.pdf`;
      // Saved, never rendered by the browser as the API's origin: a PDF that is also a web page cannot run there.
      return reply
        .type('application/pdf')
        .header(
          'Content-Disposition',
          `attachment; filename="${downloadName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(downloadName)}`,
        )
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'private, no-store')
        .send(file.content);
    },
  );

  app.delete(
    '/files/:id',
    {
      config: { access: { feature: 'files', action: 'delete' } },
      schema: { tags, summary: 'Retirer un fichier', params: idParamsSchema, response: { 200: messageShape } },
    },
    async (request) => {
      await files.remove(authOf(request), request.params.id);
      return { message: MESSAGES.deleted };
    },
  );
};
