import { type BackupStore, createLocalBackupStore } from './backup-store.ts';
import { createFileStore, type DocumentStore } from './file-store.ts';
import type { S3Settings } from './s3-store.ts';

export interface StorageSettings {
  storageDir: string;
  backupDir: string;
  s3?: S3Settings;
}

/**
 * The documents and the backup archives: both in the bucket when S3_* is set (one client between them), else under
 * STORAGE_DIR and BACKUP_DIR. The server, `npm run restore` and `npm run copy-documents` open them alike.
 * The AWS SDK is loaded only with a bucket: a server on disk never pays its memory (issue 33, docs/decisions.md).
 */
export async function openStores({
  storageDir,
  backupDir,
  s3,
}: StorageSettings): Promise<{ documents: DocumentStore; archives: BackupStore }> {
  if (!s3) return { documents: createFileStore(storageDir), archives: createLocalBackupStore(backupDir) };
  const [{ createS3Client, createS3Store }, { createS3BackupStore }] = await Promise.all([
    import('./s3-store.ts'),
    import('./s3-backup-store.ts'),
  ]);
  const client = createS3Client(s3);
  return { documents: createS3Store(s3, client), archives: createS3BackupStore(client, s3.bucket, backupDir) };
}
