/**
 * What the sign-in pages load once the visitor reaches for a field (issue 34): the domain's rules (zod) and the
 * calls, kept out of the page's first script so that it runs in a few milliseconds on a phone.
 */
import { forgotPasswordSchema, loginSchema, TWO_FACTOR_MESSAGES, twoFactorCodeField } from '@reformes/domain';

export { requestPasswordReset, signIn, signInWithCode } from './auth-api.ts';

type Checked<T> = { values: T; errors?: undefined } | { values?: undefined; errors: Record<string, string> };

/** The values as the schema reads them, or the first message of each field in error. */
function check<T>(
  result: { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } },
): Checked<T> {
  if (result.success) return { values: result.data };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0] ?? '')] ??= issue.message;
  return { errors };
}

export const checkLogin = (values: { email: string; password: string }) => check(loginSchema.safeParse({ ...values, device: 'web' }));
export const checkForgotPassword = (values: { email: string }) => check(forgotPasswordSchema.safeParse(values));

/** A TOTP or recovery code, spaces dropped; its error, if any, under `code`. */
export function checkCode(code: string): Checked<string> {
  const result = twoFactorCodeField.safeParse(code);
  return result.success ? { values: result.data } : { errors: { code: result.error.issues[0]?.message ?? '' } };
}

/** The server's answer to a code sent after the challenge expired: the password is needed again. */
export const isChallengeExpired = (message: string) => message === TWO_FACTOR_MESSAGES.challengeExpired;
