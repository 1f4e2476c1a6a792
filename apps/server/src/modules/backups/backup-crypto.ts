import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Encrypted backups (BACKUP_ENCRYPTION_KEY): AES-256-GCM, streamed. Layout: `MAGIC`, a random 12-byte IV,
 * the ciphertext, then the 16-byte tag that authenticates the header and the ciphertext together.
 */
const MAGIC = Buffer.from('RFBKENC1');
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = MAGIC.length + IV_BYTES;

/** Added to the plain name of an encrypted backup: `reformes-…-db.jsonl.gz.enc`. */
export const ENCRYPTED_EXTENSION = '.enc';

/** A pipeline stage that encrypts what flows through it: `pipeline(source, encryptionStage(key), target)`. */
export function encryptionStage(key: Buffer) {
  return async function* encrypt(source: AsyncIterable<Buffer>) {
    const header = Buffer.concat([MAGIC, randomBytes(IV_BYTES)]);
    const cipher = createCipheriv('aes-256-gcm', key, header.subarray(MAGIC.length));
    cipher.setAAD(header);
    yield header;
    for await (const chunk of source) yield cipher.update(chunk);
    yield cipher.final();
    yield cipher.getAuthTag();
  };
}

/** True when the file starts like an encrypted backup, whatever it is called. */
export async function isEncryptedBackup(file: string): Promise<boolean> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(MAGIC.length), 0, MAGIC.length, 0);
    return bytesRead === MAGIC.length && buffer.equals(MAGIC);
  } finally {
    await handle.close();
  }
}

/**
 * Decrypts `file` into a new file `target` readable by its owner only. The tag is checked at the end: on a wrong
 * key or an altered file nothing is left at `target` and the error says so in French.
 */
export async function decryptBackup(file: string, target: string, key: Buffer): Promise<void> {
  const refused = new Error(
    `Impossible de déchiffrer ${path.basename(file)} : BACKUP_ENCRYPTION_KEY n'est pas la clé de cette sauvegarde, ou le fichier est altéré.`,
  );
  const { size } = await fs.promises.stat(file);
  if (size < HEADER_BYTES + TAG_BYTES || !(await isEncryptedBackup(file))) throw refused;
  const header = Buffer.alloc(HEADER_BYTES);
  const tag = Buffer.alloc(TAG_BYTES);
  const handle = await fs.promises.open(file, 'r');
  try {
    await handle.read(header, 0, HEADER_BYTES, 0);
    await handle.read(tag, 0, TAG_BYTES, size - TAG_BYTES);
  } finally {
    await handle.close();
  }
  const decipher = createDecipheriv('aes-256-gcm', key, header.subarray(MAGIC.length));
  decipher.setAAD(header);
  decipher.setAuthTag(tag);
  const ciphertext =
    size > HEADER_BYTES + TAG_BYTES ? fs.createReadStream(file, { start: HEADER_BYTES, end: size - TAG_BYTES - 1 }) : Readable.from([]);
  const plain = fs.createWriteStream(target, { flags: 'wx', mode: 0o600 });
  let created = false;
  plain.once('open', () => {
    created = true;
  });
  try {
    await pipeline(ciphertext, decipher, plain);
  } catch (error) {
    if (created) await fs.promises.rm(target, { force: true });
    throw /authenticate/i.test((error as Error).message) ? refused : error;
  }
}
