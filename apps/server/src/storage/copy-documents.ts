import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { type DocumentStore, documentKeyOf } from './file-store.ts';

export interface CopyReport {
  copied: number;
  /** Already in the target with the same SHA-256: a second run after an interruption sends only what is missing. */
  present: number;
  /** Documents whose copy could not be written or does not read back as the original, with why. */
  failed: Array<{ key: string; reason: string }>;
}

async function sha256Of(content: Readable): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of content) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Copies every document of `source` into `target` under the same `<folder>/<name>` (STORAGE_DIR into the bucket, when
 * moving to S3), one at a time and streamed, then reads each copy back and compares its SHA-256 with the original's.
 * The source is left as it is; what failed is reported, never skipped silently.
 */
export async function copyDocuments(
  source: DocumentStore,
  target: DocumentStore,
  onDocument: (key: string, outcome: 'copied' | 'present' | 'failed') => void = () => undefined,
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, present: 0, failed: [] };
  for await (const { folder, name, size } of source.list()) {
    const key = documentKeyOf(folder, name);
    try {
      const original = await sha256Of(await source.stream(folder, name));
      if ((await target.exists(folder, name)) && (await sha256Of(await target.stream(folder, name))) === original) {
        report.present += 1;
        onDocument(key, 'present');
        continue;
      }
      await target.put(folder, name, await source.stream(folder, name), size);
      const copy = await sha256Of(await target.stream(folder, name));
      if (copy !== original) throw new Error(`empreinte SHA-256 différente après la copie (${copy} au lieu de ${original})`);
      report.copied += 1;
      onDocument(key, 'copied');
    } catch (error) {
      report.failed.push({ key, reason: (error as Error).message });
      onDocument(key, 'failed');
    }
  }
  return report;
}
