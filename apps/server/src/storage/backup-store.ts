import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where the backup archives live: under BACKUP_DIR (the default), or in the documents' bucket under
 * `backups/<folder>/<name>` when S3_* is set, so that every instance lists, downloads and prunes the same ones.
 * An archive is always written to a local file first (pg_dump, gzip and the encryption stream into it), then kept.
 */
export interface BackupStore {
  /** Where to write the archive `<folder>/<name>` before `keep` (a folder readable by the server's user only). */
  workFile(folder: string, name: string): string;
  /** Keeps the written `workFile`: left where it is (disk), or sent to the bucket and removed here. */
  keep(folder: string, name: string): Promise<void>;
  stream(folder: string, name: string): Promise<Readable>;
  exists(folder: string, name: string): Promise<boolean>;
  /** Removes the archive, and a `workFile` left by a failed backup; nothing happens when it is already gone. */
  remove(folder: string, name: string): Promise<void>;
}

/** Our names only (`reformes-20261126-173800-ab12-db.dump.enc`): a client's path never reaches the disk or the bucket. */
export function checkBackupName(folder: string, name: string): string {
  if (!/^[a-z0-9_]+$/.test(folder) || !/^[a-z0-9][a-z0-9.-]*$/i.test(name) || name.includes('..'))
    throw new Error(`Nom de sauvegarde invalide : ${folder}/${name}`);
  return path.join(folder, name);
}

export function createLocalBackupStore(backupDir: string): BackupStore {
  const fileOf = (folder: string, name: string) => path.join(backupDir, checkBackupName(folder, name));
  return {
    workFile: fileOf,
    async keep() {},
    async stream(folder, name) {
      return fs.createReadStream(fileOf(folder, name));
    },
    async exists(folder, name) {
      return fs.existsSync(fileOf(folder, name));
    },
    async remove(folder, name) {
      await fs.promises.rm(fileOf(folder, name), { force: true });
    },
  };
}
