import { MESSAGES } from './messages.ts';

/**
 * The policy every new password follows (first password, recovery, account change, admin reset), on top of
 * the spec's 8 characters: not the app's name, not a common password, not the owner's name or email.
 */
export type PasswordIssue = 'app-name' | 'common' | 'personal';

/** Who the password is for: the words of their name and of their email's local part may not appear in it. */
export interface PasswordOwner {
  email?: string | null;
  lastname?: string | null;
  firstname?: string | null;
}

/** Shorter words ("Li", "Bo") would refuse too many passwords by chance. */
const OWNER_WORD_MIN_LENGTH = 3;
const APP_NAME = 'reforme';

/** Lower case, accents dropped, letters and digits only: `foldPassword('Ré-formes 2026!')` is `'reformes2026'`. */
export function foldPassword(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** True when the password holds the app's name, whatever its case, accents or separators ("Réformes2026!"). */
export function containsAppName(password: string): boolean {
  return foldPassword(password).includes(APP_NAME);
}

/** The words of the owner's names and email local part, folded: "Jean-Paul", "jp.moreau@x" give jean, paul, moreau. */
export function ownerWordsOf(owner: PasswordOwner): string[] {
  const localPart = owner.email?.split('@')[0] ?? '';
  const words = [localPart, owner.lastname ?? '', owner.firstname ?? '']
    .flatMap((text) => text.split(/[^\p{L}\p{N}]+/u))
    .map(foldPassword)
    .filter((word) => word.length >= OWNER_WORD_MIN_LENGTH);
  return [...new Set(words)];
}

export function containsOwnerWord(password: string, owner: PasswordOwner): boolean {
  const folded = foldPassword(password);
  return ownerWordsOf(owner).some((word) => folded.includes(word));
}

/**
 * The first rule a new password breaks, or undefined. `isCommon` is the server's list of common passwords
 * (too heavy for the web); without it that rule is skipped.
 */
export function passwordIssueOf(
  password: string,
  { owner, isCommon }: { owner?: PasswordOwner; isCommon?: (password: string) => boolean } = {},
): PasswordIssue | undefined {
  if (containsAppName(password)) return 'app-name';
  if (isCommon?.(password)) return 'common';
  if (owner && containsOwnerWord(password, owner)) return 'personal';
  return undefined;
}

/** The French message of an issue; `forOther` when an administrator sets someone else's password. */
export function passwordIssueMessage(issue: PasswordIssue, { forOther = false }: { forOther?: boolean } = {}): string {
  if (issue === 'app-name') return MESSAGES.passwordHasAppName;
  if (issue === 'common') return MESSAGES.passwordTooCommon;
  return forOther ? MESSAGES.passwordHasUserInfo : MESSAGES.passwordHasOwnInfo;
}
