import path from 'node:path';
import { REFORME_MESSAGES } from '@reformes/domain';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reformeFiles } from '../../db/schema/index.ts';
import { AppError, megabytes, notFound } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/guard.ts';
import type { DocumentStore } from '../../storage/file-store.ts';
import { withChemin } from './file-chemin.ts';
import { pendingUsageOf, purgeStalePendingFiles } from './pending-files.ts';
import { findChangeableReforme, findReformeInScope } from './reforme-scope.ts';
import { REFORME_FILES_FOLDER } from './reformes.service.ts';
import { actAs } from './timeline.service.ts';

/** The first key of the per-user advisory lock on pending uploads (the second is the user's id). */
const PENDING_UPLOADS_LOCK = 727_101;

export interface FilesServiceOptions {
  db: Db;
  store: DocumentStore;
  /** Per user, for the uploads waiting for their reform (PENDING_UPLOADS_MAX, PENDING_UPLOADS_MAX_MB). */
  pendingLimits: { files: number; bytes: number };
}

/**
 * PDF attachments: stored before or after their reform exists, read only within scope. An upload no reform
 * claims within a day is removed, at start and at every upload.
 */
export function createFilesService({ db, store, pendingLimits }: FilesServiceOptions) {
  /** The file if the caller may see it: a pending one to its uploader only, an attached one within its reform's scope. */
  async function findFile(auth: AuthContext, id: number) {
    const [file] = await db.select().from(reformeFiles).where(eq(reformeFiles.id, id));
    if (!file) throw notFound();
    if (file.reforme_id === null) {
      if (file.created_by !== auth.userId) throw notFound();
      return { file, reforme: undefined };
    }
    return { file, reforme: await findReformeInScope(db, auth, file.reforme_id) };
  }

  /**
   * 422 when one more pending upload of `bytes` would pass the user's limits. The count and the insert that follows
   * run under a per-user lock held to the commit, so that concurrent uploads cannot all pass one check.
   */
  async function assertPendingRoom(tx: Pick<Db, 'execute' | 'select'>, userId: number, bytes: number) {
    await tx.execute(sql`select pg_advisory_xact_lock(${PENDING_UPLOADS_LOCK}, ${userId})`);
    const usage = await pendingUsageOf(tx, userId);
    if (usage.files + 1 > pendingLimits.files || usage.bytes + bytes > pendingLimits.bytes) {
      const limits = `au plus ${pendingLimits.files} fichiers et ${megabytes(pendingLimits.bytes)} Mo`;
      throw new AppError(422, `${REFORME_MESSAGES.pendingFilesFull} (${limits})`);
    }
  }

  return {
    purgeStale: () => purgeStalePendingFiles(db, store),

    /**
     * Stores a checked PDF: attached to `reformeId`, which the caller must be allowed to change now, or pending
     * for its uploader within the per-user limits.
     */
    async add(auth: AuthContext, upload: { reformeId: number | null; nameFile: string; content: Buffer; filename: string }) {
      const { reformeId, content } = upload;
      // A refusal known before the bytes are written costs no disk; the write's transaction checks again.
      if (reformeId === null) await assertPendingRoom(db, auth.userId, content.length);
      else await findChangeableReforme(db, auth, reformeId);
      await purgeStalePendingFiles(db, store);
      const stored = await store.save(REFORME_FILES_FOLDER, content, 'pdf');
      try {
        return await db.transaction(async (tx) => {
          await actAs(tx, auth);
          if (reformeId === null) await assertPendingRoom(tx, auth.userId, content.length);
          // Locked until the commit: a transition of the reform waits for the attachment, or refuses it.
          else await findChangeableReforme(tx, auth, reformeId);
          const [row] = await tx
            .insert(reformeFiles)
            .values({
              reforme_id: reformeId,
              name_file: upload.nameFile,
              name: stored,
              original_name: path.basename(upload.filename).slice(0, 255),
              size: content.length,
              created_by: auth.userId,
            })
            .returning({
              id: reformeFiles.id,
              reforme_id: reformeFiles.reforme_id,
              name_file: reformeFiles.name_file,
              original_name: reformeFiles.original_name,
              size: reformeFiles.size,
            });
          return withChemin(row);
        });
      } catch (error) {
        await store.remove(REFORME_FILES_FOLDER, stored);
        throw error;
      }
    },

    /** The file's label and its stored bytes, within scope; 404 when it is gone from the disk. */
    async download(auth: AuthContext, id: number) {
      const { file } = await findFile(auth, id);
      if (!(await store.exists(REFORME_FILES_FOLDER, file.name))) throw notFound('Le fichier est introuvable sur le serveur.');
      return { name_file: file.name_file, content: await store.stream(REFORME_FILES_FOLDER, file.name) };
    },

    /** Removes a pending file of the caller's, or an attached one of a reform the caller may change now. */
    async remove(auth: AuthContext, id: number) {
      const { file, reforme } = await findFile(auth, id);
      await db.transaction(async (tx) => {
        await actAs(tx, auth);
        if (reforme) await findChangeableReforme(tx, auth, reforme.id);
        await tx
          .delete(reformeFiles)
          .where(
            and(
              eq(reformeFiles.id, file.id),
              file.reforme_id === null ? isNull(reformeFiles.reforme_id) : eq(reformeFiles.reforme_id, file.reforme_id),
            ),
          );
      });
      await store.remove(REFORME_FILES_FOLDER, file.name);
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
