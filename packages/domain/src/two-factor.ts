import { MESSAGES } from './messages.ts';
import { requiredText } from './text-fields.ts';
import { TEXT_LIMITS } from './text-limits.ts';
import { z } from './zod-locale.ts';

/** Two-factor sign-in by TOTP (issue 18): RFC 6238, 6 digits, 30-second steps, one step of drift either way. */
export const TOTP = { digits: 6, period: 30, window: 1, issuer: 'Réformes' } as const;
export const RECOVERY_CODE_COUNT = 10;

export const TWO_FACTOR_MESSAGES = {
  title: 'Double authentification',
  codeLabel: 'Code de vérification',
  codeHelp: "Les 6 chiffres de votre application d'authentification, ou un code de secours.",
  codeRequired: 'Le code de vérification est requis',
  codeFormat: 'Saisissez les 6 chiffres du code ou un code de secours (XXXXX-XXXXX)',
  invalidCode: 'Code de vérification invalide ou déjà utilisé',
  challengeExpired: 'La vérification a expiré : reconnectez-vous.',
  signInStep: "Saisissez le code affiché par votre application d'authentification.",
  enrolIntro:
    "Scannez ce QR code avec votre application d'authentification (FreeOTP, Aegis, Google Authenticator…), ou saisissez la clé à la main, puis le code qu'elle affiche.",
  manualKey: 'Clé à saisir',
  enabled: 'Double authentification activée',
  disabled: 'Double authentification désactivée',
  reset: 'Double authentification réinitialisée',
  notEnabled: "La double authentification n'est pas activée.",
  alreadyEnabled: 'La double authentification est déjà activée.',
  noPendingSetup: "Commencez par afficher le QR code d'activation.",
  recoveryIntro:
    'Codes de secours : chacun remplace une fois le code de votre application si vous la perdez. Conservez-les en lieu sûr : ils ne seront plus affichés.',
  required: 'Votre rôle exige la double authentification : activez-la pour continuer.',
  requiredCannotDisable: 'Votre rôle exige la double authentification : elle ne peut pas être désactivée.',
  /** One answer whichever was wrong: a session alone must not tell whether a guessed password is right. */
  wrongPasswordOrCode: 'Mot de passe ou code de vérification incorrect',
  currentPasswordLabel: 'Mot de passe actuel',
  keyChanged:
    'Votre double authentification ne peut plus être vérifiée (clé de chiffrement changée) : utilisez un code de secours ou demandez à un administrateur de la réinitialiser.',
  renewRecoveryCodes: 'Générer de nouveaux codes de secours',
  renewRecoveryCodesIntro:
    'Saisissez votre mot de passe et un code de vérification : de nouveaux codes de secours remplacent les anciens, qui ne valent plus.',
  recoveryCodesRenewed: 'Nouveaux codes de secours générés : les anciens ne valent plus.',
  disable: 'Désactiver la double authentification',
  statusOn: 'Activée',
  statusOff: 'Non activée',
} as const;

/** A TOTP code (6 digits, spaces allowed) or a recovery code (XXXXX-XXXXX, dash and case free). */
export const twoFactorCodeField = requiredText(TWO_FACTOR_MESSAGES.codeRequired, TEXT_LIMITS.label)
  .transform((text) => text.replace(/\s+/g, ''))
  .refine((text) => /^\d{6}$/.test(text) || /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(text), { error: TWO_FACTOR_MESSAGES.codeFormat });

export const twoFactorSignInSchema = z.object({ challenge_token: requiredText(MESSAGES.fieldRequired), code: twoFactorCodeField });
/** Turning the second factor on or off, or renewing the recovery codes: the current password and a code (issue 29). */
export const twoFactorConfirmSchema = z.object({
  password: requiredText(MESSAGES.passwordRequired, TEXT_LIMITS.password),
  code: twoFactorCodeField,
});
export type TwoFactorConfirmInput = z.infer<typeof twoFactorConfirmSchema>;
