import { z } from '../zod-locale.ts';
import { envelopeShape, type Shape } from './envelope.ts';

/** `POST api/login` for a user with two-factor sign-in: no tokens yet, a short-lived challenge for the code. */
export const twoFactorChallengeShape = z.object({ two_factor_required: z.literal(true), challenge_token: z.string() });

/** `GET api/2fa`: whether the second factor is on, whether the role demands it, how many recovery codes are left. */
export const twoFactorStatusShape = z.object({ enabled: z.boolean(), required: z.boolean(), recovery_codes_left: z.number() });
export type TwoFactorStatus = Shape<typeof twoFactorStatusShape>;
export const twoFactorStatusAnswer = envelopeShape(twoFactorStatusShape);

/** `POST api/2fa/setup`: what the enrolment screen shows. */
export const twoFactorSetupShape = z.object({ otpauth_url: z.string(), qr_code: z.string(), secret: z.string() });
export const twoFactorSetupAnswer = envelopeShape(twoFactorSetupShape);

/** `POST api/2fa/enable` and `api/2fa/recovery-codes`: the recovery codes, shown once. */
export const recoveryCodesShape = z.object({ recovery_codes: z.array(z.string()) });
export const recoveryCodesAnswer = envelopeShape(recoveryCodesShape);

export type TwoFactorSetup = z.infer<typeof twoFactorSetupShape>;
export type TwoFactorChallenge = z.infer<typeof twoFactorChallengeShape>;
