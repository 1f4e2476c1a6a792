import { MESSAGES } from './messages.ts';
import { containsAppName } from './password-policy.ts';
import { limitedText, requiredText } from './text-fields.ts';
import { TEXT_LIMITS, tooLongMessage } from './text-limits.ts';
import { z } from './zod-locale.ts';

export const emailField = requiredText(MESSAGES.emailRequired, TEXT_LIMITS.email).pipe(z.email({ error: MESSAGES.emailInvalid }));

export const PASSWORD_MIN_LENGTH = 8;
export const passwordField = requiredText(MESSAGES.passwordRequired, TEXT_LIMITS.password).pipe(
  z
    .string()
    .min(PASSWORD_MIN_LENGTH, { error: MESSAGES.passwordMin })
    // The rest of the policy needs the owner or the server's list: see passwordIssueOf.
    .refine((password) => !containsAppName(password), { error: MESSAGES.passwordHasAppName }),
);

export const loginSchema = z.object({
  email: emailField,
  password: z
    .string({ error: MESSAGES.passwordRequired })
    .min(1, { error: MESSAGES.passwordRequired })
    .max(TEXT_LIMITS.password, { error: tooLongMessage(TEXT_LIMITS.password) }),
  device: limitedText(TEXT_LIMITS.label).default('web'),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const refreshSchema = z.object({ refresh_token: requiredText(MESSAGES.fieldRequired) });

export const forgotPasswordSchema = z.object({ email: emailField });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** Spec §5: "Nouveaux mots de passe non identique" when the two fields differ. */
function confirmed<T extends z.ZodObject>(schema: T, password: string, confirmation: string) {
  return schema.refine((value) => (value as Record<string, unknown>)[password] === (value as Record<string, unknown>)[confirmation], {
    error: MESSAGES.passwordsDiffer,
    path: [confirmation],
  });
}

export const recoveryPasswordSchema = confirmed(
  z.object({
    token: requiredText(MESSAGES.invalidResetToken),
    password: passwordField,
    password_confirmation: passwordField,
  }),
  'password',
  'password_confirmation',
);
export type RecoveryPasswordInput = z.infer<typeof recoveryPasswordSchema>;

export const firstPasswordSchema = confirmed(
  z.object({ password: passwordField, confirm_password: passwordField }),
  'password',
  'confirm_password',
);
export type FirstPasswordInput = z.infer<typeof firstPasswordSchema>;

export const changePasswordSchema = confirmed(
  z.object({
    old_password: requiredText(MESSAGES.passwordRequired, TEXT_LIMITS.password),
    new_password: passwordField,
    confirm_password: passwordField,
  }),
  'new_password',
  'confirm_password',
);
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const phoneField = requiredText(MESSAGES.phoneRequired, TEXT_LIMITS.phone).pipe(
  z.string().regex(/^\d+$/, { error: MESSAGES.phoneDigits }),
);

/** "Mon profil" modal (spec §2.2, §5): every field required, phone digits only. */
export const profileSchema = z.object({
  lastname: requiredText(MESSAGES.lastnameRequired),
  firstname: requiredText(MESSAGES.firstnameRequired),
  email: emailField,
  phone: phoneField,
});
export type ProfileInput = z.infer<typeof profileSchema>;

/**
 * `POST api/user-update` takes either the profile or the account page's email alone (spec §7), and the current
 * password, which a change of email requires (issue 14; the server checks it, see `isEmailChange`).
 */
export const userUpdateSchema = profileSchema.partial().extend({
  email: emailField,
  current_password: z
    .string({ error: MESSAGES.currentPasswordRequired })
    .max(TEXT_LIMITS.password, { error: tooLongMessage(TEXT_LIMITS.password) })
    .optional(),
});
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;

/** An email changes when it differs other than by case or surrounding spaces: `isEmailChange('a@x.fr', ' A@X.fr')` is false. */
export function isEmailChange(currentEmail: string, email: string | undefined): boolean {
  return email !== undefined && email.trim().toLowerCase() !== currentEmail.trim().toLowerCase();
}

/**
 * The forms' side of the rule: once the email differs from `currentEmail`, `current_password` is required.
 * `requireCurrentPasswordOnEmailChange(profileSchema.extend({ current_password: ... }), user.email)`.
 */
export function requireCurrentPasswordOnEmailChange<T extends z.ZodObject<{ email: z.ZodType<string> }>>(schema: T, currentEmail: string) {
  return schema.superRefine((value, context) => {
    const { email, current_password } = value as { email: string; current_password?: string };
    if (isEmailChange(currentEmail, email) && !current_password) {
      context.addIssue({ code: 'custom', path: ['current_password'], message: MESSAGES.currentPasswordRequired });
    }
  });
}

const plural = (count: number, word: string) => `${count} ${word}${count > 1 ? 's' : ''}`;

/** The 429 of sign-in, saying when to come back: `tooManyAttemptsMessage(90)` -> "… Réessayez dans 2 minutes." */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const wait = retryAfterSeconds < 60 ? plural(retryAfterSeconds, 'seconde') : plural(Math.ceil(retryAfterSeconds / 60), 'minute');
  return `Trop de tentatives de connexion. Réessayez dans ${wait}.`;
}

/** Where signatures live (architecture §4): disk "local", folder "director". */
export const SIGNATURE_DISK = 'local';
export const SIGNATURE_FOLDER = 'director';

/** `POST get-file`: a stored image named by its disk, folder and file name (only the signatures' folder is open). */
export const fileLookupSchema = z.object({
  folder: limitedText(TEXT_LIMITS.label, 'Le dossier est requis'),
  disk: limitedText(TEXT_LIMITS.label).default(SIGNATURE_DISK),
  filename: requiredText('Le nom du fichier est requis'),
});

/** `GET user-settings-by-state/:state`: the active settings (1) or the others (0). */
export const settingsStateParamSchema = z.object({ state: z.enum(['0', '1']) });
