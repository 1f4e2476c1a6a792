import fs from 'node:fs';
import { count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { backups } from '../../db/schema/index.ts';
import { notFound } from '../../http/app-error.ts';
import { listOrPage } from '../../http/pagination.ts';
import { matchesSearch } from '../../http/search.ts';
import type { BackupStore } from '../../storage/backup-store.ts';
import type { DocumentStore } from '../../storage/file-store.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { ENCRYPTED_EXTENSION } from './backup-crypto.ts';
import { archiveDocuments, BACKUP_FOLDERS, backupFolderOf, type DumpFormat, databaseDumpExtension, dumpDatabase } from './backup-files.ts';

export interface BackupsOptions {
  database: Database;
  /** Where the archives go: BACKUP_DIR, or the bucket (storage/backup-store.ts). */
  archives: BackupStore;
  /** The documents archived: on the disk or in the bucket. */
  documents: DocumentStore;
  retention: number;
  /** BACKUP_ENCRYPTION_KEY: new backups are encrypted (`….enc`); without it they are written in clear. */
  encryptionKey?: Buffer;
  /** BACKUP_DATABASE_FORMAT (config.ts): `pg_dump` unless told; always `logical` for the embedded cluster. */
  databaseFormat?: DumpFormat;
}

export interface BackupsListQuery {
  /** Case- and accent-insensitive "contains" on the name or the type. */
  search?: string;
  per_page?: number;
  page: number;
}

function stamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * "Effectuer une sauvegarde": a database dump (type = the database kind: `…-db.jsonl.gz` for the embedded cluster,
 * `…-db.dump` for PostgreSQL) and a documents archive (type "doc"), recorded with name, type and size, both readable
 * by the server's user only and encrypted with BACKUP_ENCRYPTION_KEY when it is set; only the last `retention`
 * database dumps and documents archives are kept, files and rows removed together.
 */
export function createBackupsService({
  database,
  archives,
  documents,
  retention,
  encryptionKey,
  databaseFormat = 'pg_dump',
}: BackupsOptions) {
  const format = database.kind === 'embedded' ? 'logical' : (databaseFormat ?? 'pg_dump');
  const { db } = database;
  const removeArchive = (row: { type: string; name: string }) => archives.remove(backupFolderOf(row.type), row.name);

  async function applyRetention() {
    // Database backups of every kind count together: those made before a change of kind ('pglite' before 'embedded')
    // leave with the oldest.
    for (const kind of [eq(backups.type, 'doc'), ne(backups.type, 'doc')]) {
      const old = await db.select().from(backups).where(kind).orderBy(desc(backups.created_at), desc(backups.id)).offset(retention);
      if (old.length === 0) continue;
      await db.delete(backups).where(
        inArray(
          backups.id,
          old.map((row) => row.id),
        ),
      );
      await Promise.all(old.map(removeArchive));
    }
  }

  return {
    /** The archive's bytes, from the disk or the bucket. */
    open: (row: { type: string; name: string }) => archives.stream(backupFolderOf(row.type), row.name),

    /** Newest first: a page with the true total, or, without `per_page`, the whole list when it is small enough. */
    list({ search = '', ...query }: BackupsListQuery) {
      const where = matchesSearch([backups.name, backups.type], search);
      return listOrPage(
        query,
        (limit, offset) =>
          db.select().from(backups).where(where).orderBy(desc(backups.created_at), desc(backups.id)).limit(limit).offset(offset),
        async () => (await db.select({ total: count() }).from(backups).where(where))[0].total,
      );
    },

    async listByState(isActive: boolean) {
      return db.select().from(backups).where(eq(backups.is_active, isActive)).orderBy(desc(backups.created_at));
    },

    async setState(id: number, isActive: boolean) {
      const [updated] = await db.update(backups).set({ is_active: isActive }).where(eq(backups.id, id)).returning();
      if (!updated) throw notFound();
      return updated;
    },

    async create() {
      const prefix = `reformes-${stamp(new Date())}-${Math.random().toString(36).slice(2, 6)}`;
      const encrypted = encryptionKey ? ENCRYPTED_EXTENSION : '';
      const made = [
        { name: `${prefix}-db.${databaseDumpExtension(format)}${encrypted}`, type: database.kind, folder: BACKUP_FOLDERS.db },
        { name: `${prefix}-docs.tar.gz${encrypted}`, type: 'doc', folder: BACKUP_FOLDERS.doc },
      ];
      const [dbFile, docFile] = made.map(({ folder, name }) => archives.workFile(folder, name));
      try {
        await dumpDatabase(database, dbFile, encryptionKey, { format });
        await archiveDocuments(documents, docFile, encryptionKey);
        const sizes = await Promise.all([dbFile, docFile].map(async (file) => (await fs.promises.stat(file)).size));
        for (const { folder, name } of made) await archives.keep(folder, name);
        const rows = await db
          .insert(backups)
          .values(made.map(({ name, type }, index) => ({ name, type, size: sizes[index] })))
          .returning();
        await recordAudit(db, {
          action: 'backup.create',
          target: { type: 'backup', id: rows[0].id, label: prefix },
          details: { files: rows.map((row) => row.name) },
        });
        await applyRetention();
        return rows;
      } catch (error) {
        await Promise.all(made.map(({ folder, name }) => archives.remove(folder, name)));
        throw error;
      }
    },

    async find(id: number) {
      const [row] = await db.select().from(backups).where(eq(backups.id, id));
      if (!row) throw notFound();
      return row;
    },

    async findByName(folder: string, name: string) {
      const [row] = await db.select().from(backups).where(eq(backups.name, name));
      if (!row || backupFolderOf(row.type) !== folder || !(await archives.exists(folder, row.name))) throw notFound();
      return row;
    },

    /** Who downloads a backup (a copy of every account and document) is worth a line in the audit log. */
    recordDownload: (row: { id: number; name: string }) =>
      recordAudit(db, { action: 'backup.download', target: { type: 'backup', id: row.id, label: row.name } }),

    async remove(id: number) {
      const row = await this.find(id);
      await db.transaction(async (tx) => {
        await tx.delete(backups).where(eq(backups.id, id));
        await recordAudit(tx, { action: 'backup.delete', target: { type: 'backup', id, label: row.name } });
      });
      await removeArchive(row);
    },

    count: async () => (await db.select({ total: sql<number>`count(*)::int` }).from(backups))[0].total,
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;
