import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { createSlots } from '../../http/slots.ts';

/**
 * argon2id with 7 MiB, 5 passes, 1 lane: one of the OWASP cheat sheet's equivalent settings (the library's default,
 * 19 MiB x 2, is another). Each hash holds its memory while it runs, so the smaller pool keeps a sign-in from lifting
 * the server's memory by 19 MiB (issue 33: 120 MB at peak). Hashes made with other settings still verify: each
 * carries its own.
 */
export const ARGON2_OPTIONS = { memoryCost: 7168, timeCost: 5, parallelism: 1 } as const;

/**
 * At most two hashes at a time: a burst of sign-ins neither multiplies that memory nor fills libuv's four threads,
 * which file reads and DNS share. The queue holds a closure per waiting request, which the per-IP sign-in limit and
 * the pressure guard already bound.
 */
const withHashSlot = createSlots(2);

export function hashPassword(password: string): Promise<string> {
  return withHashSlot(() => hash(password, ARGON2_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await withHashSlot(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

// A real hash to verify against when the email is unknown, so both cases take the same time.
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return decoyHash;
}

/** A temporary password an admin-created account receives by mail: readable, 12 characters. */
export function generateTemporaryPassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';
  return Array.from(randomBytes(12), (byte) => alphabet[byte % alphabet.length]).join('');
}
