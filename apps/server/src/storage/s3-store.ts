import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { type DocumentStore, documentKeyOf, parseDocumentKey } from './file-store.ts';

export interface S3Settings {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `<endpoint>/<bucket>/<key>` rather than `<bucket>.<endpoint>/<key>`: MinIO and most servers other than AWS. */
  forcePathStyle: boolean;
}

/** The keys of the backup archives in the bucket start with `backups/` (backup-store.ts). */
export const BACKUPS_PREFIX = 'backups';

/**
 * How long the bucket may keep a call waiting (ms): far under a job's lease (300 s, jobs/worker.ts), so that a backup's
 * upload never outlives it while the server is silent (issue 40, item 13). A silence, not a total: a large archive
 * that keeps moving takes the time it needs.
 */
export interface S3Timeouts {
  connectionMs: number;
  /** No byte either way for that long: the socket is closed, the call fails (the SDK retries it twice). */
  socketMs: number;
}
export const S3_TIMEOUTS: S3Timeouts = { connectionMs: 10_000, socketMs: 60_000 };

/** The bucket's client, shared by the documents' store and the backups' (one connection pool). */
export function createS3Client(settings: S3Settings, { connectionMs, socketMs }: S3Timeouts = S3_TIMEOUTS): S3Client {
  return new S3Client({
    requestHandler: { connectionTimeout: connectionMs, socketTimeout: socketMs },
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: settings.forcePathStyle,
    // The CRC checksums the SDK adds by default since 2025 are refused by many S3-compatible servers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Whether the bucket holds `key`: HEAD answers 404 for a missing one, and any other failure is one. */
export async function objectExists(client: S3Client, bucket: string, key: string): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (error) {
    if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
    throw error;
  }
}

/**
 * Documents in an S3-compatible bucket, under `<folder>/<name>`, so that every instance sees the same ones. Downloads
 * are the GetObject body passed on as it arrives, never held whole in memory.
 */
export function createS3Store(settings: S3Settings, client = createS3Client(settings)): DocumentStore {
  const bucket = settings.bucket;
  const keyOf = documentKeyOf;

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
    exists: async (folder, name) => objectExists(client, bucket, keyOf(folder, name)),
    async remove(folder, name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(folder, name) }));
    },
    async put(folder, name, content, size) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: keyOf(folder, name), Body: content, ContentLength: size }));
    },
    async *list() {
      // A thousand keys a page; the backup archives' `backups/…` keys (backup-store.ts) are not documents.
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          const document = object.Key ? parseDocumentKey(object.Key) : undefined;
          if (document && document.folder !== BACKUPS_PREFIX) yield { ...document, size: object.Size ?? 0 };
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
