import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Where the server writes its mails when no SMTP server is configured (the data folder of playwright.config.ts). */
export const OUTBOX_DIR = path.join(path.resolve(root, process.env.E2E_DATA_DIR ?? path.join('e2e', '.data')), 'outbox');

/** Undoes quoted-printable: soft line breaks first, then the =XX bytes (UTF-8). */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

interface Mail {
  file: string;
  to: string;
  body: string;
}

async function readMails(): Promise<Mail[]> {
  const names = await fs.readdir(OUTBOX_DIR).catch(() => [] as string[]);
  const mails: Mail[] = [];
  for (const name of names.filter((file) => file.endsWith('.eml')).sort()) {
    const raw = await fs.readFile(path.join(OUTBOX_DIR, name), 'utf8');
    const to = /^To: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
    mails.push({ file: name, to, body: decodeQuotedPrintable(raw) });
  }
  return mails;
}

/** The names of the mails already in the outbox, to tell the next one apart. */
export async function outboxSnapshot(): Promise<Set<string>> {
  return new Set((await readMails()).map((mail) => mail.file));
}

/** Waits for a new mail to `email` (one not in `before`) whose body matches `pattern`; returns the match. */
export async function waitForMail(email: string, before: Set<string>, pattern: RegExp): Promise<RegExpExecArray> {
  let match: RegExpExecArray | null | undefined;
  await expect
    .poll(
      async () => {
        const mail = (await readMails()).find((candidate) => !before.has(candidate.file) && candidate.to.includes(email));
        match = mail && pattern.exec(mail.body);
        return Boolean(match);
      },
      { message: `un email pour ${email} contenant ${pattern} dans ${OUTBOX_DIR}` },
    )
    .toBe(true);
  return match as RegExpExecArray;
}

/**
 * The path of the link of a new reset mail, /auth/recovery-password/{token}: the mail's host is the
 * server's PUBLIC_URL, the journeys keep their own.
 */
export async function waitForResetLink(email: string, before: Set<string>): Promise<string> {
  return (await waitForMail(email, before, /\/auth\/recovery-password\/[A-Za-z0-9_-]+/))[0];
}
