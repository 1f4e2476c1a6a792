import {
  AUTH_ROUTES,
  type FirstPasswordInput,
  type ForgotPasswordInput,
  type LoginInput,
  type RecoveryPasswordInput,
} from '@reformes/domain';
import { call } from '../../api/call.ts';

/** The session, or, for an account with a second factor, the challenge that the code step needs. */
export function signIn(credentials: LoginInput) {
  return call(AUTH_ROUTES.login, { body: credentials, skipSessionRenewal: true });
}

export function signInWithCode(challenge: string, code: string) {
  return call(AUTH_ROUTES.loginWithCode, { body: { challenge_token: challenge, code }, skipSessionRenewal: true });
}

export function requestPasswordReset(input: ForgotPasswordInput) {
  return call(AUTH_ROUTES.forgotPassword, { body: input });
}

export function recoverPassword(input: RecoveryPasswordInput) {
  return call(AUTH_ROUTES.recoverPassword, { body: input });
}

export function changeFirstPassword(input: FirstPasswordInput) {
  return call(AUTH_ROUTES.changeFirstPassword, { body: input });
}
