import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where documents live: this folder (the default) or an S3 bucket (s3-store.ts), under `<folder>/<name>` in both. */
export interface DocumentStore {
  /** Stores the bytes under a new name of ours, which it returns: `<uuid>.<extension>`. */
  save(folder: string, content: Buffer, extension: string): Promise<string>;
  stream(folder: string, name: string): Promise<Readable>;
  read(folder: string, name: string): Promise<Buffer>;
  exists(folder: string, name: string): Promise<boolean>;
  /** Removes the document; nothing happens when it is already gone. */
  remove(folder: string, name: string): Promise<void>;
  /** Stores `size` bytes under a name `save` gave before (a restore, a copy from another store); replaces any. */
  put(folder: string, name: string, content: Readable, size: number): Promise<void>;
  /** Every document, folder by folder, read page by page: an archive or a copy never holds the whole list. */
  list(): AsyncIterable<StoredDocument>;
}

export interface StoredDocument {
  folder: string;
  name: string;
  size: number;
}

/** `<folder>/<name>`, both checked: how a document is named in an archive, a bucket or a copy report. */
export function documentKeyOf(folder: string, name: string): string {
  if (!/^[a-z0-9-]+$/.test(folder)) throw new Error(`Dossier de documents invalide : ${folder}`);
  return `${folder}/${checkStoredName(name)}`;
}

/** The folder and name of `<folder>/<name>` (a leading `./` of a tar entry allowed); undefined for anything else. */
export function parseDocumentKey(key: string): { folder: string; name: string } | undefined {
  const match = /^(?:\.\/)?([a-z0-9-]+)\/([a-z0-9-]+(?:\.[a-z0-9]+)?)$/i.exec(key);
  return match ? { folder: match[1], name: match[2] } : undefined;
}

/** The names `save` gives: a client's name never reaches the disk or the bucket. */
export function checkStoredName(name: string): string {
  if (!/^[a-z0-9-]+(\.[a-z0-9]+)?$/i.test(name)) throw new Error(`Nom de fichier stocké invalide : ${name}`);
  return name;
}

/** Files under STORAGE_DIR, always named by us. Readable by the server's user only. */
export function createFileStore(storageDir: string): DocumentStore {
  const pathOf = (folder: string, name: string) => path.join(storageDir, documentKeyOf(folder, name));
  return {
    async save(folder: string, content: Buffer, extension: string): Promise<string> {
      const name = `${randomUUID()}.${extension}`;
      await fs.promises.mkdir(path.join(storageDir, folder), { recursive: true, mode: 0o700 });
      await fs.promises.writeFile(pathOf(folder, name), content, { flag: 'wx', mode: 0o600 });
      return name;
    },
    async stream(folder: string, name: string) {
      return fs.createReadStream(pathOf(folder, name));
    },
    read(folder: string, name: string) {
      return fs.promises.readFile(pathOf(folder, name));
    },
    async exists(folder: string, name: string) {
      return fs.existsSync(pathOf(folder, name));
    },
    async remove(folder: string, name: string) {
      await fs.promises.rm(pathOf(folder, name), { force: true });
    },
    async put(folder, name, content) {
      await fs.promises.mkdir(path.join(storageDir, folder), { recursive: true, mode: 0o700 });
      await pipeline(content, fs.createWriteStream(pathOf(folder, name), { mode: 0o600 }));
    },
    async *list() {
      const folders = await fs.promises.readdir(storageDir, { withFileTypes: true }).catch(() => []);
      for (const folder of folders) {
        if (!folder.isDirectory() || !/^[a-z0-9-]+$/.test(folder.name)) continue;
        // An open directory handle reads its entries a few at a time.
        for await (const entry of await fs.promises.opendir(path.join(storageDir, folder.name))) {
          if (!entry.isFile() || parseDocumentKey(`${folder.name}/${entry.name}`) === undefined) continue;
          const { size } = await fs.promises.stat(path.join(storageDir, folder.name, entry.name));
          yield { folder: folder.name, name: entry.name, size };
        }
      }
    },
  };
}

/** True when the bytes start like a PDF document, whatever the file is called. */
export function isPdf(content: Buffer): boolean {
  return content.length > 8 && content.subarray(0, 5).toString('latin1') === '%PDF-';
}

/**
 * Markup a browser would run if it ever took the file for a web page (a PDF/HTML polyglot). Only long tags:
 * compressed PDF streams are random bytes, in which a short tag such as `<svg` turns up by chance.
 */
const MARKUP = /<(?:!doctype\s+html|html|body|script|iframe)[\s>/]/i;

/**
 * Why a file that starts like a PDF is still refused: no `%%EOF` in its last 1 024 bytes, where PDF readers look
 * for it (`'incomplete'`), or HTML or script inside (`'markup'`); undefined for an ordinary PDF.
 */
export function pdfProblemOf(content: Buffer): 'incomplete' | 'markup' | undefined {
  if (!content.subarray(-1024).includes('%%EOF')) return 'incomplete';
  if (MARKUP.test(content.toString('latin1'))) return 'markup';
  return undefined;
}

export type ImageType = { mime: 'image/png' | 'image/jpeg'; extension: 'png' | 'jpg' };

/** PNG or JPEG by their first bytes; anything else (SVG, PDF, renamed files) is refused. */
export function imageTypeOf(content: Buffer): ImageType | undefined {
  if (content.length > 8 && content.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return { mime: 'image/png', extension: 'png' };
  if (content.length > 3 && content[0] === 0xff && content[1] === 0xd8 && content[2] === 0xff)
    return { mime: 'image/jpeg', extension: 'jpg' };
  return undefined;
}
