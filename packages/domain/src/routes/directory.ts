import { SIGN_IN_OPTIONS_ROUTE } from '../directory.ts';
import { idParamsSchema } from '../reference.ts';
import { userAnswer } from '../shapes/auth.ts';
import { authorizationUrlAnswer, signInOptionsAnswer } from '../shapes/directory.ts';
import { messageShape } from '../shapes/envelope.ts';
import { routesOf } from './route.ts';

/**
 * Issue 42: sign-in with the administration's directory (OpenID Connect). The provider's callback,
 * `/auth/oidc/callback`, is a page (it answers the sign-in page with the outcome), not one of these routes.
 */
export const DIRECTORY_ROUTES = routesOf(['Annuaire (OpenID Connect)'], {
  options: {
    ...SIGN_IN_OPTIONS_ROUTE,
    summary: "Ce que propose la page de connexion (bouton de l'annuaire, formulaire de mot de passe)",
    answer: signInOptionsAnswer,
  },
  // Answers 302 to the provider with the pending dance's cookie; throttled per client.
  authorize: {
    method: 'GET',
    path: '/auth/oidc/authorize',
    access: 'public',
    summary: "Commence la connexion par l'annuaire (redirection vers le fournisseur)",
    bodiless: { status: 303, description: "Vers la page de connexion de l'annuaire (Location)" },
  },
  link: {
    method: 'POST',
    path: '/auth/oidc/link',
    access: 'signed-in',
    summary: "Commence la liaison de son compte à l'annuaire (adresse du fournisseur)",
    answer: authorizationUrlAnswer,
  },
  unlink: {
    method: 'DELETE',
    path: '/auth/oidc/link',
    access: 'signed-in',
    summary: "Délie son compte de l'annuaire (s'il garde un mot de passe)",
    answer: userAnswer,
  },
  adminUnlink: {
    method: 'DELETE',
    path: '/users/:id/directory-link',
    access: { feature: 'users', action: 'edit' },
    summary: "Supprime le lien d'un compte avec l'annuaire",
    params: idParamsSchema,
    answer: messageShape,
  },
  // Form-encoded `logout_token` (OpenID Connect Back-Channel Logout 1.0); 200 with no body, 400 `invalid_request`.
  backchannelLogout: {
    method: 'POST',
    path: '/auth/oidc/backchannel-logout',
    access: 'public',
    summary: "Déconnexion demandée par l'annuaire (back-channel logout)",
    bodiless: { status: 200, description: 'Sessions terminées (sans contenu)' },
  },
});
