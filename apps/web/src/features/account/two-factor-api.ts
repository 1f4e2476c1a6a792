import type { TwoFactorConfirmInput, TwoFactorSetup } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { type ApiResponse, api } from '../../api/client.ts';

export interface TwoFactorStatus {
  enabled: boolean;
  required: boolean;
  recovery_codes_left: number;
}

export const TWO_FACTOR_KEY = ['two-factor'] as const;

export const twoFactorStatusQuery = () =>
  queryOptions({
    queryKey: TWO_FACTOR_KEY,
    queryFn: ({ signal }) => api.get<ApiResponse<TwoFactorStatus>>('api/2fa', { action: 'show', signal }),
    select: (response) => response.data,
  });

export const startTwoFactorSetup = async () => (await api.post<ApiResponse<TwoFactorSetup>>('api/2fa/setup', { action: 'add' })).data;

/** The current password and a code: what turning the second factor on or off, or renewing the codes, asks. */
export type PasswordAndCode = TwoFactorConfirmInput;

export const enableTwoFactor = (input: PasswordAndCode) =>
  api.post<ApiResponse<{ recovery_codes: string[] }>>('api/2fa/enable', { action: 'add', body: input });

export const disableTwoFactor = (input: PasswordAndCode) =>
  api.post<{ message: string }>('api/2fa/disable', { action: 'edit', body: input });

export const renewRecoveryCodes = (input: PasswordAndCode) =>
  api.post<ApiResponse<{ recovery_codes: string[] }>>('api/2fa/recovery-codes', { action: 'edit', body: input });
