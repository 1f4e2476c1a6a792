import { z } from '../zod-locale.ts';
import { envelopeShape, timestamp } from './envelope.ts';

/** `GET auth/options`: what the sign-in page offers (issue 42). */
export const signInOptionsShape = z.object({
  /** The directory's button, when OpenID Connect is configured. */
  directory: z.object({ label: z.string() }).nullable(),
  /** False when PASSWORD_SIGNIN=false: the password form is the admins' break-glass way in. */
  password_signin: z.boolean(),
});
export const signInOptionsAnswer = envelopeShape(signInOptionsShape);

/** A user's directory identity: the pair (issuer, `sub`), and when it was linked. */
export const directoryLinkShape = z.object({ issuer: z.string(), subject: z.string(), linked_at: timestamp });

/** `POST auth/oidc/link`: where to send the browser; the pending dance's cookie comes with the answer. */
export const authorizationUrlAnswer = envelopeShape(z.object({ authorization_url: z.string() }));

/** `GET logout`: for a directory session, the provider's logout address to open next (RP-initiated logout). */
export const logoutAnswer = z.object({ message: z.string(), logout_url: z.string().optional() });
