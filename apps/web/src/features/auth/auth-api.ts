import type { FirstPasswordInput, ForgotPasswordInput, LoginInput, RecoveryPasswordInput, TwoFactorChallenge } from '@reformes/domain';
import { type ApiResponse, api } from '../../api/client.ts';
import type { CurrentUser, TokenPair } from '../../session/session.ts';

export type SignInData = TokenPair & { features: string[]; user: CurrentUser };
type MessageOnly = { message: string };

/** The session, or, for an account with a second factor, the challenge that the code step needs. */
export function signIn(credentials: LoginInput) {
  return api.post<ApiResponse<SignInData | TwoFactorChallenge>>('api/login', {
    action: 'add',
    body: credentials,
    skipSessionRenewal: true,
  });
}

export function signInWithCode(challenge: string, code: string) {
  return api.post<ApiResponse<SignInData>>('api/login/2fa', {
    action: 'add',
    body: { challenge_token: challenge, code },
    skipSessionRenewal: true,
  });
}

export function requestPasswordReset(input: ForgotPasswordInput) {
  return api.post<MessageOnly>('api/forgot-password', { action: 'add', body: input });
}

export function recoverPassword(input: RecoveryPasswordInput) {
  return api.post<MessageOnly>('api/recovery-password', { action: 'edit', body: input });
}

export function changeFirstPassword(input: FirstPasswordInput) {
  return api.post<MessageOnly>('api/change-first-password', { action: 'edit', body: input });
}
