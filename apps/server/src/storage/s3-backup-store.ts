import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { type BackupStore, checkBackupName } from './backup-store.ts';
import { BACKUPS_PREFIX, objectExists } from './s3-store.ts';

/** Archives in the bucket; `backupDir/.envoi/` holds each one between its writing and its upload. */
export function createS3BackupStore(client: S3Client, bucket: string, backupDir: string): BackupStore {
  const workFile = (folder: string, name: string) => path.join(backupDir, '.envoi', checkBackupName(folder, name));
  const keyOf = (folder: string, name: string) => `${BACKUPS_PREFIX}/${checkBackupName(folder, name)}`;
  return {
    workFile,
    async keep(folder, name) {
      const file = workFile(folder, name);
      const { size } = await fs.promises.stat(file);
      // Streamed from the disk with its length known: a single PUT (up to 5 GB), never the archive in memory.
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: keyOf(folder, name), Body: fs.createReadStream(file), ContentLength: size }),
      );
      await fs.promises.rm(file, { force: true });
    },
    async stream(folder, name) {
      const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(folder, name) }));
      if (!Body) throw new Error(`Sauvegarde sans contenu dans le stockage S3 : ${keyOf(folder, name)}`);
      return Body as Readable;
    },
    exists: async (folder, name) => objectExists(client, bucket, keyOf(folder, name)),
    async remove(folder, name) {
      await fs.promises.rm(workFile(folder, name), { force: true });
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(folder, name) }));
    },
  };
}
