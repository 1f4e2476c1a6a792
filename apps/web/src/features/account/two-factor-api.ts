import { type AnswerOf, TWO_FACTOR_ROUTES, type TwoFactorConfirmInput } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

export type TwoFactorStatus = AnswerOf<typeof TWO_FACTOR_ROUTES.status>['data'];

export const TWO_FACTOR_KEY = ['two-factor'] as const;

export const twoFactorStatusQuery = () =>
  queryOptions({
    queryKey: TWO_FACTOR_KEY,
    queryFn: ({ signal }) => call(TWO_FACTOR_ROUTES.status, { signal }),
    select: (response) => response.data,
  });

export const startTwoFactorSetup = async () => (await call(TWO_FACTOR_ROUTES.setup, {})).data;

/** The current password and a code: what turning the second factor on or off, or renewing the codes, asks. */
export type PasswordAndCode = TwoFactorConfirmInput;

export const enableTwoFactor = (input: PasswordAndCode) => call(TWO_FACTOR_ROUTES.enable, { body: input });

export const disableTwoFactor = (input: PasswordAndCode) => call(TWO_FACTOR_ROUTES.disable, { body: input });

export const renewRecoveryCodes = (input: PasswordAndCode) => call(TWO_FACTOR_ROUTES.renewRecoveryCodes, { body: input });
