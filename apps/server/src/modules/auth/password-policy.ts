import { createRequire } from 'node:module';
import { type PasswordOwner, passwordIssueMessage, passwordIssueOf } from '@reformes/domain';
import { invalid } from '../../http/app-error.ts';

// Read on the first password check, not at start: the package holds every zxcvbn dictionary (issue 33).
const require = createRequire(import.meta.url);

let commonPasswords: Set<string> | undefined;

/**
 * The ~49 000 most common passwords of zxcvbn-ts' maintained list (all lower case), matched whatever the case:
 * "Password" is refused. Loaded on first use; too heavy for the web bundle, so only the server checks it.
 */
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= new Set(
    (require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common')).dictionary['passwords-common'],
  );
  return commonPasswords.has(password.toLowerCase());
}

/**
 * Throws 422 with the French reason under `field` when a new password breaks the policy of `passwordIssueOf`.
 * `forOther`: an administrator sets the password of `owner`, the message then speaks of "l'utilisateur".
 */
export function assertAcceptablePassword(password: string, owner: PasswordOwner, field: string, { forOther = false } = {}): void {
  const issue = passwordIssueOf(password, { owner, isCommon: isCommonPassword });
  if (issue) throw invalid({ [field]: [passwordIssueMessage(issue, { forOther })] });
}
