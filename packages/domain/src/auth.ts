import { z } from 'zod';
import { MESSAGES } from './messages.ts';

/** A required text field: absent, non-string or blank all give the same French message. */
export function requiredText(message: string) {
  return z.string({ error: message }).trim().min(1, { error: message });
}

export const emailField = requiredText(MESSAGES.emailRequired).pipe(z.email({ error: MESSAGES.emailInvalid }));

export const PASSWORD_MIN_LENGTH = 8;
export const passwordField = requiredText(MESSAGES.passwordRequired).pipe(
  z.string().min(PASSWORD_MIN_LENGTH, { error: MESSAGES.passwordMin }),
);

export const loginSchema = z.object({
  email: emailField,
  password: z.string({ error: MESSAGES.passwordRequired }).min(1, { error: MESSAGES.passwordRequired }),
  device: z.string().default('web'),
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
    old_password: requiredText(MESSAGES.passwordRequired),
    new_password: passwordField,
    confirm_password: passwordField,
  }),
  'new_password',
  'confirm_password',
);
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const phoneField = requiredText(MESSAGES.phoneRequired).pipe(z.string().regex(/^\d+$/, { error: MESSAGES.phoneDigits }));

/** "Mon profil" modal (spec §2.2, §5): every field required, phone digits only. */
export const profileSchema = z.object({
  lastname: requiredText(MESSAGES.lastnameRequired),
  firstname: requiredText(MESSAGES.firstnameRequired),
  email: emailField,
  phone: phoneField,
});
export type ProfileInput = z.infer<typeof profileSchema>;

/** `POST api/user-update` takes either the profile or the account page's email alone (spec §7). */
export const userUpdateSchema = profileSchema.partial().extend({ email: emailField });
export type UserUpdateInput = z.infer<typeof userUpdateSchema>;
