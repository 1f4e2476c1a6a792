import { z } from '../zod-locale.ts';
import { envelopeShape, type Shape, timestamp } from './envelope.ts';
import { twoFactorChallengeShape } from './two-factor.ts';

/** A user's directory identity (issue 42): the pair (issuer, `sub`), and when it was linked. */
export const directoryLinkShape = z.object({ issuer: z.string(), subject: z.string(), linked_at: timestamp });

/** A user as the API shows it (spec §3 "User"), never with its password hash. */
export const userShape = z.object({
  id: z.number(),
  /** "Prénom Nom" */
  name: z.string(),
  lastname: z.string(),
  firstname: z.string(),
  address: z.string(),
  email: z.string(),
  phone: z.string(),
  /** Null only for an account created by the directory and still « en attente » (issue 42). */
  structure_id: z.number().nullable(),
  structure: z.object({ id: z.number(), designation: z.string(), sigl: z.string() }).nullable(),
  roles: z.array(z.object({ id: z.number(), name: z.string() })),
  is_active: z.boolean(),
  is_signer: z.boolean(),
  /** A temporary password still to replace (first sign-in, reset by an admin). */
  must_change_password: z.boolean(),
  user_setting: z.object({ id: z.number(), signature: z.string().nullable() }).nullable(),
  /** Issue 18: whether the user signs in with a second factor, and whether one of its roles demands it. */
  two_factor: z.object({ enabled: z.boolean(), required: z.boolean() }),
  /** Issue 42: the account's directory identity, if linked, and whether a password remains beside it. */
  directory_link: directoryLinkShape.nullable(),
  has_password: z.boolean(),
});
export type CurrentUser = Shape<typeof userShape>;
export const userAnswer = envelopeShape(userShape);

/** The signed-in user with its rights, so the web app follows a change of profile without signing in again. */
export const currentUserShape = userShape.extend({ features: z.array(z.string()) });
export const currentUserAnswer = envelopeShape(currentUserShape);

/** The token pair of a session (access token short-lived, refresh token rotated on use). */
export const tokenPairShape = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  /** The access token's lifetime, in seconds. */
  expire_in: z.number(),
  token_type: z.literal('Bearer'),
});
export type TokenPair = Shape<typeof tokenPairShape>;
export const tokenPairAnswer = envelopeShape(tokenPairShape);

/** `POST api/login`: the tokens, the rights and the user. */
export const signInShape = tokenPairShape.extend({ features: z.array(z.string()), user: userShape });
export type SignIn = Shape<typeof signInShape>;
export const signInAnswer = envelopeShape(signInShape);
/** `POST api/login`: the session, or, for a user with two-factor sign-in, the challenge of the code step (issue 18). */
export const loginAnswer = envelopeShape(z.union([signInShape, twoFactorChallengeShape]));

/** A user's signature setting (spec §3 "UserSetting"): `signature` is the stored file's name. */
export const userSettingShape = z.object({
  id: z.number(),
  user_id: z.number(),
  signature: z.string().nullable(),
  is_active: z.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type UserSetting = Shape<typeof userSettingShape>;
export const userSettingAnswer = envelopeShape(userSettingShape);

/** `POST get-file`: the stored image, as a data URL, alone in a list. */
export const dataUrlsAnswer = envelopeShape(z.array(z.string()));
