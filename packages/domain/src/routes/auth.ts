import {
  firstPasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  recoveryPasswordSchema,
  refreshSchema,
  userUpdateSchema,
} from '../auth.ts';
import { currentUserAnswer, loginAnswer, signInAnswer, tokenPairAnswer, userAnswer } from '../shapes/auth.ts';
import { logoutAnswer } from '../shapes/directory.ts';
import { messageShape } from '../shapes/envelope.ts';
import { twoFactorSignInSchema } from '../two-factor.ts';
import { routesOf } from './route.ts';

/** Spec §7 "Auth and account", the temporary-password flow and refresh-token rotation of the architecture. */
export const AUTH_ROUTES = routesOf(['Authentification'], {
  // Throttled by the service, per address, per client on an email and per email (429 with Retry-After).
  login: {
    method: 'POST',
    path: '/api/login',
    access: 'public',
    summary: 'Connexion (avec double authentification : un défi pour le code, sans jeton)',
    body: loginSchema,
    answer: loginAnswer,
  },
  // Throttled by the service like the password, per address and per account.
  loginWithCode: {
    method: 'POST',
    path: '/api/login/2fa',
    access: 'public',
    summary: 'Connexion : le code de vérification',
    body: twoFactorSignInSchema,
    answer: signInAnswer,
  },
  refresh: {
    method: 'POST',
    path: '/api/refresh',
    access: 'public',
    summary: 'Renouvelle la paire de jetons',
    body: refreshSchema,
    answer: tokenPairAnswer,
  },
  // The rights travel with the user so the web app follows a change of profile without signing in again.
  currentUser: { method: 'GET', path: '/api/user', access: 'first-password', summary: "L'utilisateur connecté", answer: currentUserAnswer },
  logout: { method: 'GET', path: '/logout', access: 'first-password', summary: 'Déconnexion', answer: logoutAnswer },
  forgotPassword: {
    method: 'POST',
    path: '/api/forgot-password',
    access: 'public',
    summary: 'Demande de lien de réinitialisation',
    body: forgotPasswordSchema,
    answer: messageShape,
  },
  // Throttled per address by the service (429 with Retry-After).
  recoverPassword: {
    method: 'POST',
    path: '/api/recovery-password',
    access: 'public',
    summary: 'Nouveau mot de passe par lien',
    body: recoveryPasswordSchema,
    answer: messageShape,
  },
  changeFirstPassword: {
    method: 'POST',
    path: '/api/change-first-password',
    access: 'first-password',
    summary: 'Remplace le mot de passe temporaire',
    body: firstPasswordSchema,
    answer: messageShape,
  },
  // One's own profile, for any signed-in user (docs/decisions-issue13-roles.md).
  updateProfile: {
    method: 'POST',
    path: '/api/user-update',
    access: 'signed-in',
    summary: 'Met à jour son profil',
    body: userUpdateSchema,
    answer: userAnswer,
  },
});
