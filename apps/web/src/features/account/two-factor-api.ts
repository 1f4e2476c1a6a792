import type { TwoFactorSetup } from '@reformes/domain';
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

export const enableTwoFactor = (code: string) =>
  api.post<ApiResponse<{ recovery_codes: string[] }>>('api/2fa/enable', { action: 'add', body: { code } });

export const disableTwoFactor = (input: { password: string; code: string }) =>
  api.post<{ message: string }>('api/2fa/disable', { action: 'edit', body: input });
