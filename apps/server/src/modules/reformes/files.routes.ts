import { fileNameField, ID_MAX, REFORME_MESSAGES, FILES_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, invalid } from '../../http/app-error.ts';
import { deleted, ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { hasPath, readUpload } from '../../http/multipart.ts';
import { routeTable } from '../../http/route-table.ts';
import { isPdf, pdfProblemOf } from '../../storage/file-store.ts';
import type { FilesService } from './files.service.ts';

/** A name the user gives or the browser sends: a label only, never with a path in it. */
function isPathLike(name: string): boolean {
  return hasPath(name) || name.includes('\0');
}

/**
 * The handlers of FILES_ROUTES (packages/domain/src/routes/files.ts): PDF attachments (spec §7 `files/`), uploaded
 * before or after the reform exists, served only within scope.
 * An upload no reform claims within a day is removed at the next upload, and every hour by a scheduled job (app.ts).
 */
export const filesRoutes: FastifyPluginAsyncZod<{ files: FilesService; maxBytes: number }> = async (app, { files, maxBytes }) => {
  const on = routeTable(app);
  on(ROUTES.upload, async (request) => {
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
    return ok(
      await files.add(auth, { reformeId, nameFile, content: file.content, filename: file.filename }),
      REFORME_MESSAGES.fileUploaded,
    );
  });

  on(ROUTES.show, async (request, reply) => {
    const file = await files.download(authOf(request), request.params.id);
    const downloadName = `${file.name_file.replace(/[^\p{L}\p{N} ._-]/gu, '_')}.pdf`;
    // Saved, never rendered by the browser as the API's origin: a PDF that is also a web page cannot run there.
    return reply
      .type(ROUTES.show.file)
      .header(
        'Content-Disposition',
        `attachment; filename="${downloadName.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(downloadName)}`,
      )
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', 'private, no-store')
      .send(file.content);
  });

  on(ROUTES.remove, (request) => deleted(files.remove(authOf(request), request.params.id)));
};
