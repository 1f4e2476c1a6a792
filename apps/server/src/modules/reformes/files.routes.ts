import path from 'node:path';
import { fileNameField, ID_MAX, idParamsSchema, MESSAGES, REFORME_MESSAGES } from '@reformes/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { reformeFiles } from '../../db/schema/index.ts';
import { AppError, fileTooLarge, invalid, notFound } from '../../http/app-error.ts';
import { ok } from '../../http/envelope.ts';
import { type AuthContext, authOf } from '../../http/guard.ts';
import { readingMultipart } from '../../http/multipart.ts';
import { type FileStore, isPdf, pdfProblemOf } from '../../storage/file-store.ts';
import { withChemin } from './file-chemin.ts';
import { pendingUsageOf, purgeStalePendingFiles } from './pending-files.ts';
import { findChangeableReforme, findReformeInScope } from './reforme-scope.ts';
import { REFORME_FILES_FOLDER } from './reformes.service.ts';

const tags = ['Fichiers joints'];

/** A name the user gives or the browser sends: a label only, never with a path in it. */
function isPathLike(name: string): boolean {
  return /[/\\]|\.\./.test(name) || name.includes('\0');
}

/** Reads the multipart form: its text fields and its one file, refused once it exceeds `maxBytes`. */
async function readUpload(parts: AsyncIterableIterator<import('@fastify/multipart').Multipart>, maxBytes: number) {
  const fields: Record<string, string> = {};
  let file: { content: Buffer; filename: string } | undefined;
  for await (const part of parts) {
    if (part.type === 'file') {
      const content = await part.toBuffer().catch((error: { code?: string }) => {
        if (error.code === 'FST_REQ_FILE_TOO_LARGE') throw fileTooLarge(maxBytes);
        throw error;
      });
      file = { content, filename: part.filename };
    } else {
      fields[part.fieldname] = String(part.value ?? '');
    }
  }
  return { fields, file };
}

const megabytes = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 3 });

export interface FilesRoutesOptions {
  db: Db;
  files: FileStore;
  maxBytes: number;
  /** Per user, for the uploads waiting for their reform (PENDING_UPLOADS_MAX, PENDING_UPLOADS_MAX_MB). */
  pendingLimits: { files: number; bytes: number };
}

/**
 * PDF attachments (spec §7 `files/`): uploaded before or after the reform exists, served only within scope.
 * An upload no reform claims within a day is removed, at start and at every upload.
 */
export const filesRoutes: FastifyPluginAsyncZod<FilesRoutesOptions> = async (app, { db, files, maxBytes, pendingLimits }) => {
  app.addHook('onReady', async () => {
    await purgeStalePendingFiles(db, files).catch((error) => app.log.warn({ err: error }, 'purge des fichiers en attente impossible'));
  });

  async function findFile(auth: AuthContext, id: number) {
    const [file] = await db.select().from(reformeFiles).where(eq(reformeFiles.id, id));
    if (!file) throw notFound();
    if (file.reforme_id === null) {
      if (file.created_by !== auth.userId) throw notFound();
      return { file, reforme: undefined };
    }
    return { file, reforme: await findReformeInScope(db, auth, file.reforme_id) };
  }

  app.post(
    '/files',
    {
      config: { access: { feature: 'files', action: 'add' } },
      schema: { tags, summary: 'Charger un PDF (multipart name_file, file, reforme_id?)' },
    },
    async (request, reply) => {
      const auth = authOf(request);
      if (!request.isMultipart()) throw new AppError(415, REFORME_MESSAGES.pdfOnly);
      // preservePath: busboy would otherwise strip "../" from the file name before the check below could refuse it.
      const { fields, file } = await readingMultipart(() =>
        readUpload(request.parts({ preservePath: true, limits: { fileSize: maxBytes, files: 1 } }), maxBytes),
      );
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
      if (reformeId !== null) {
        if (!Number.isInteger(reformeId) || reformeId <= 0 || reformeId > ID_MAX) throw invalid({ reforme_id: ['Identifiant invalide'] });
        await findChangeableReforme(db, auth, reformeId);
      }
      await purgeStalePendingFiles(db, files);
      if (reformeId === null) {
        const usage = await pendingUsageOf(db, auth.userId);
        if (usage.files + 1 > pendingLimits.files || usage.bytes + file.content.length > pendingLimits.bytes) {
          const limits = `au plus ${pendingLimits.files} fichiers et ${megabytes.format(pendingLimits.bytes / 1024 / 1024)} Mo`;
          throw new AppError(422, `${REFORME_MESSAGES.pendingFilesFull} (${limits})`);
        }
      }
      const stored = await files.save(REFORME_FILES_FOLDER, file.content, 'pdf');
      const [row] = await db
        .insert(reformeFiles)
        .values({
          reforme_id: reformeId,
          name_file: nameFile,
          name: stored,
          original_name: path.basename(file.filename).slice(0, 255),
          size: file.content.length,
          created_by: auth.userId,
        })
        .returning({
          id: reformeFiles.id,
          reforme_id: reformeFiles.reforme_id,
          name_file: reformeFiles.name_file,
          original_name: reformeFiles.original_name,
          size: reformeFiles.size,
        });
      reply.status(201);
      return ok(withChemin(row), REFORME_MESSAGES.fileUploaded);
    },
  );

  // The `chemin` of every attachment (file-chemin.ts) points here.
  app.get(
    '/files/:id',
    {
      config: { access: { feature: 'files', action: 'show' } },
      schema: { tags, summary: 'Voir le fichier (PDF)', params: idParamsSchema },
    },
    async (request, reply) => {
      const { file } = await findFile(authOf(request), request.params.id);
      if (!files.exists(REFORME_FILES_FOLDER, file.name)) throw notFound('Le fichier est introuvable sur le serveur.');
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
        .send(files.stream(REFORME_FILES_FOLDER, file.name));
    },
  );

  app.delete(
    '/files/:id',
    { config: { access: { feature: 'files', action: 'delete' } }, schema: { tags, summary: 'Retirer un fichier', params: idParamsSchema } },
    async (request) => {
      const auth = authOf(request);
      const { file, reforme } = await findFile(auth, request.params.id);
      if (reforme) await findChangeableReforme(db, auth, reforme.id);
      await db
        .delete(reformeFiles)
        .where(
          and(
            eq(reformeFiles.id, file.id),
            file.reforme_id === null ? isNull(reformeFiles.reforme_id) : eq(reformeFiles.reforme_id, file.reforme_id),
          ),
        );
      await files.remove(REFORME_FILES_FOLDER, file.name);
      return { message: MESSAGES.deleted };
    },
  );
};
