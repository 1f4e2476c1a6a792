/**
 * What the sign-in pages load once the visitor reaches for a field (issue 34): the domain's rules (zod) and the
 * calls, kept out of the page's first script so that it runs in a few milliseconds on a phone.
 */
import {
  type AnswerOf,
  AUTH_ROUTES,
  actionOf,
  type BodyOf,
  ERROR_CODES,
  forgotPasswordSchema,
  loginSchema,
  type RouteSpec,
  twoFactorCodeField,
} from '@reformes/domain';
import { PageApiError, pageRequest } from '../api.ts';

/** A call of the domain's route table, as the back office's call() makes it (api/call.ts): method, path and X-Action from the table. */
const send = <R extends RouteSpec>(route: R, body: BodyOf<R>) =>
  pageRequest<AnswerOf<R>>(route.method as 'POST', route.path, { action: actionOf(route), body });

/** The session, or, for an account with a second factor, the challenge that the code step needs. */
export const signIn = (credentials: BodyOf<typeof AUTH_ROUTES.login>) => send(AUTH_ROUTES.login, credentials);
export const signInWithCode = (challenge: string, code: string) => send(AUTH_ROUTES.loginWithCode, { challenge_token: challenge, code });
export const requestPasswordReset = (input: BodyOf<typeof AUTH_ROUTES.forgotPassword>) => send(AUTH_ROUTES.forgotPassword, input);

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

/**
 * The server's answer to a code sent after the challenge expired (the password is needed again), told by its code
 * (ERROR_CODES, issue 41), never by its French message.
 */
export const isChallengeExpired = (error: unknown) => error instanceof PageApiError && error.code === ERROR_CODES.twoFactorChallengeExpired;
