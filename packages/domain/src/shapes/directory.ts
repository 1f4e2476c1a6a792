import { z } from '../zod-locale.ts';
import { signInShape } from './auth.ts';
import { envelopeShape } from './envelope.ts';

/** `GET auth/options`: what the sign-in page offers (issue 42). */
export const signInOptionsShape = z.object({
  /** The directory's button, when OpenID Connect is configured. */
  directory: z.object({ label: z.string() }).nullable(),
  /** False when PASSWORD_SIGNIN=false: the password form is the admins' break-glass way in. */
  password_signin: z.boolean(),
});
export const signInOptionsAnswer = envelopeShape(signInOptionsShape);

/** `POST auth/oidc/link`: where to send the browser; the pending dance's cookie comes with the answer. */
export const authorizationUrlAnswer = envelopeShape(z.object({ authorization_url: z.string() }));

/** `GET logout`: for a directory session, the provider's logout address to open next (RP-initiated logout). */
export const logoutAnswer = z.object({ message: z.string(), logout_url: z.string().optional() });

/** What the server's callback decided, carried by the page it answers (the sign-in page). */
export const directoryOutcomeSchema = z.discriminatedUnion('kind', [
  /** Signed in: the same answer as `POST api/login`. */
  z.object({ kind: z.literal('signed_in'), session: signInShape }),
  /** The role demands a second factor the provider's `acr` did not give: the code step of the sign-in page. */
  z.object({ kind: z.literal('two_factor'), challenge_token: z.string() }),
  /** A dance started from « Mon compte » linked the account. */
  z.object({ kind: z.literal('linked') }),
  /** Refused: the French reason, and the page it belongs on. */
  z.object({ kind: z.literal('refused'), message: z.string(), back_to: z.enum(['sign_in', 'account']) }),
]);
/** The wire form (dates as ISO strings), as the page reads it. */
export type DirectoryOutcome = z.input<typeof directoryOutcomeSchema>;
