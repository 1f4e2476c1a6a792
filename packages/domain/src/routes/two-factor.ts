import { idParamsSchema } from '../reference.ts';
import { messageShape } from '../shapes/envelope.ts';
import { recoveryCodesAnswer, twoFactorSetupAnswer, twoFactorStatusAnswer } from '../shapes/two-factor.ts';
import { twoFactorConfirmSchema } from '../two-factor.ts';
import { routesOf } from './route.ts';

/**
 * "Mon compte" > Double authentification (issue 18). The enrolment routes stay open to a user whose role demands a
 * second factor not yet enrolled ('two-factor-setup'); every other route is closed to it.
 */
export const TWO_FACTOR_ROUTES = routesOf(['Double authentification'], {
  status: {
    method: 'GET',
    path: '/api/2fa',
    access: 'two-factor-setup',
    summary: 'État de la double authentification',
    answer: twoFactorStatusAnswer,
  },
  setup: {
    method: 'POST',
    path: '/api/2fa/setup',
    access: 'two-factor-setup',
    summary: "Commencer l'activation : QR code et clé",
    answer: twoFactorSetupAnswer,
  },
  enable: {
    method: 'POST',
    path: '/api/2fa/enable',
    access: 'two-factor-setup',
    summary: "Confirmer l'activation (mot de passe et code)",
    body: twoFactorConfirmSchema,
    answer: recoveryCodesAnswer,
  },
  disable: {
    method: 'POST',
    path: '/api/2fa/disable',
    access: 'signed-in',
    summary: 'Désactiver (mot de passe et code)',
    body: twoFactorConfirmSchema,
    answer: messageShape,
  },
  renewRecoveryCodes: {
    method: 'POST',
    path: '/api/2fa/recovery-codes',
    access: 'signed-in',
    summary: 'Nouveaux codes de secours (mot de passe et code)',
    body: twoFactorConfirmSchema,
    answer: recoveryCodesAnswer,
  },
  reset: {
    method: 'POST',
    path: '/users/:id/two-factor-reset',
    access: { feature: 'users', action: 'edit' },
    summary: "Réinitialiser la double authentification d'un compte",
    params: idParamsSchema,
    answer: messageShape,
  },
});
