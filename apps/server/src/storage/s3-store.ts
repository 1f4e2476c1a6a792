import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { checkStoredName, type DocumentStore } from './file-store.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>`: MinIO and most servers other than AWS. */
  forcePathStyle: boolean;
}

/**
 * Documents in an S3-compatible bucket, under `<folder>/<name>`, so that every instance sees the same ones. Downloads
 * are the GetObject body passed on as it arrives, never held whole in memory.
 */
export function createS3Store(settings: S3Settings): DocumentStore {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: settings.forcePathStyle,
    // The CRC checksums the SDK adds by default since 2025 are refused by many S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const bucket = settings.bucket;
  const keyOf = (folder: string, name: string) => `${folder}/${checkStoredName(name)}`;

  async function bodyOf(folder: string, name: string) {
    const { Body } = await client.send(new GetObjectCommand({ Bucket: bucket, Key: keyOf(folder, name) }));
    if (!Body) throw new Error(`Document sans contenu dans le stockage S3 : ${keyOf(folder, name)}`);
    return Body;
  }

  return {
    async save(folder, content, extension) {
      const name = `${randomUUID()}.${extension}`;
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(folder, name), Body: content, ContentLength: content.length }));
      return name;
    },
    async stream(folder, name) {
      // In Node the SDK's body is the HTTP response itself, a Readable.
      return (await bodyOf(folder, name)) as Readable;
    },
    async read(folder, name) {
      return Buffer.from(await (await bodyOf(folder, name)).transformToByteArray());
    },
    async exists(folder, name) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: keyOf(folder, name) }));
        return true;
      } catch (error) {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
        throw error;
      }
    },
    async remove(folder, name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(folder, name) }));
    },
  };
}
