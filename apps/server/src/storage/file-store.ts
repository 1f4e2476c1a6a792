import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Files under STORAGE_DIR, always named by us: a client's name never reaches the file system. Readable by the server's user only. */
export function createFileStore(storageDir: string) {
  function pathOf(folder: string, name: string): string {
    if (!/^[a-z0-9-]+(\.[a-z0-9]+)?$/i.test(name)) throw new Error(`Nom de fichier stocké invalide : ${name}`);
    return path.join(storageDir, folder, name);
  }
  return {
    async save(folder: string, content: Buffer, extension: string): Promise<string> {
      const name = `${randomUUID()}.${extension}`;
      await fs.promises.mkdir(path.join(storageDir, folder), { recursive: true, mode: 0o700 });
      await fs.promises.writeFile(pathOf(folder, name), content, { flag: 'wx', mode: 0o600 });
      return name;
    },
    stream(folder: string, name: string) {
      return fs.createReadStream(pathOf(folder, name));
    },
    read(folder: string, name: string) {
      return fs.promises.readFile(pathOf(folder, name));
    },
    exists(folder: string, name: string) {
      return fs.existsSync(pathOf(folder, name));
    },
    async remove(folder: string, name: string) {
      await fs.promises.rm(pathOf(folder, name), { force: true });
    },
  };
}

export type FileStore = ReturnType<typeof createFileStore>;

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
