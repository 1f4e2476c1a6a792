import { and, count, eq, isNull, lt, sum } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reformeFiles } from '../../db/schema/index.ts';
import type { DocumentStore } from '../../storage/file-store.ts';
import { REFORME_FILES_FOLDER } from './reformes.service.ts';

/** How long an upload waits for the reform that claims it (docs/decisions.md "Uploads before the reform exists"). */
export const PENDING_FILE_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Removes the uploads no reform claimed within a day, rows and stored files; returns how many went. */
export async function purgeStalePendingFiles(db: Db, files: DocumentStore, now = Date.now()): Promise<number> {
  const stale = await db
    .delete(reformeFiles)
    .where(and(isNull(reformeFiles.reforme_id), lt(reformeFiles.created_at, new Date(now - PENDING_FILE_LIFETIME_MS))))
    .returning({ name: reformeFiles.name });
  await Promise.all(stale.map((file) => files.remove(REFORME_FILES_FOLDER, file.name)));
  return stale.length;
}

/** The uploads a user has waiting for a reform: how many, and their bytes. */
export async function pendingUsageOf(db: Pick<Db, 'select'>, userId: number): Promise<{ files: number; bytes: number }> {
  const [usage] = await db
    .select({ files: count(), bytes: sum(reformeFiles.size).mapWith(Number) })
    .from(reformeFiles)
    .where(and(isNull(reformeFiles.reforme_id), eq(reformeFiles.created_by, userId)));
  return { files: usage.files, bytes: usage.bytes ?? 0 };
}
