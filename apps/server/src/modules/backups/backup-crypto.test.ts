import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { decryptBackup, encryptionStage, isEncryptedBackup } from './backup-crypto.ts';

const KEY = randomBytes(32);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-crypto-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Encrypts `chunks` into a new file, as a backup is written. */
async function encrypted(name: string, chunks: Buffer[], key = KEY): Promise<string> {
  const file = path.join(dir, name);
  await pipeline(Readable.from(chunks), encryptionStage(key), fs.createWriteStream(file));
  return file;
}

const REFUSED = "BACKUP_ENCRYPTION_KEY n'est pas la clé de cette sauvegarde, ou le fichier est altéré.";

describe('backup encryption (AES-256-GCM)', () => {
  it('round-trips a stream of several chunks, and the file holds none of the plain bytes', async () => {
    const plain = [Buffer.from('PGDMP tableau des comptes agent.secret@reformes.test '), randomBytes(3 * 1024 * 1024), Buffer.from('fin')];
    const file = await encrypted('round-trip.enc', plain);
    const bytes = fs.readFileSync(file);
    expect(await isEncryptedBackup(file)).toBe(true);
    expect(bytes.includes('agent.secret')).toBe(false);
    expect(bytes.includes('PGDMP')).toBe(false);

    const target = path.join(dir, 'round-trip.plain');
    await decryptBackup(file, target, KEY);
    expect(fs.readFileSync(target).equals(Buffer.concat(plain))).toBe(true);
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
  });

  it('uses a new IV each time: the same bytes never encrypt the same way', async () => {
    const first = fs.readFileSync(await encrypted('same-1.enc', [Buffer.from('même contenu')]));
    const second = fs.readFileSync(await encrypted('same-2.enc', [Buffer.from('même contenu')]));
    expect(first.equals(second)).toBe(false);
  });

  it('refuses a wrong key and an altered byte, leaving no decrypted file behind', async () => {
    const file = await encrypted('refused.enc', [Buffer.from('contenu à protéger '.repeat(1000))]);
    const target = path.join(dir, 'refused.plain');
    await expect(decryptBackup(file, target, randomBytes(32))).rejects.toThrow(`Impossible de déchiffrer refused.enc : ${REFUSED}`);
    expect(fs.existsSync(target)).toBe(false);

    const altered = fs.readFileSync(file);
    altered[100] ^= 1;
    fs.writeFileSync(path.join(dir, 'altered.enc'), altered);
    await expect(decryptBackup(path.join(dir, 'altered.enc'), target, KEY)).rejects.toThrow(REFUSED);
    expect(fs.existsSync(target)).toBe(false);
  });

  it('tells a plain backup from an encrypted one, and never overwrites an existing file', async () => {
    const plain = path.join(dir, 'plain.tar.gz');
    fs.writeFileSync(plain, Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0]));
    expect(await isEncryptedBackup(plain)).toBe(false);
    await expect(decryptBackup(plain, path.join(dir, 'plain.out'), KEY)).rejects.toThrow(REFUSED);

    const file = await encrypted('existing.enc', [Buffer.from('nouveau')]);
    const existing = path.join(dir, 'existing.plain');
    fs.writeFileSync(existing, 'déjà là');
    await expect(decryptBackup(file, existing, KEY)).rejects.toThrow();
    expect(fs.readFileSync(existing, 'utf8')).toBe('déjà là');
  });

  it('encrypts an empty stream too', async () => {
    const file = await encrypted('empty.enc', []);
    const target = path.join(dir, 'empty.plain');
    await decryptBackup(file, target, KEY);
    expect(fs.readFileSync(target).length).toBe(0);
  });
});
