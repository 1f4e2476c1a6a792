import {
  currentUserShape,
  envelopeShape,
  firstPasswordSchema,
  forgotPasswordSchema,
  loginSchema,
  MESSAGES,
  messageShape,
  recoveryPasswordSchema,
  refreshSchema,
  signInShape,
  TWO_FACTOR_MESSAGES,
  tokenPairShape,
  twoFactorChallengeShape,
  twoFactorSignInSchema,
  userAnswer,
  userUpdateSchema,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import type { AuthService } from './auth.service.ts';
import type { Sessions } from './sessions.ts';

export interface AuthRoutesOptions {
  auth: AuthService;
  sessions: Sessions;
}

const tags = ['Authentification'];

/** Spec §7 "Auth and account", the temporary-password flow and refresh-token rotation of the architecture. */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, sessions }) => {
  app.post(
    '/api/login',
    // Throttled by the service, per address, per client on an email and per email (429 with Retry-After).
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Connexion (avec double authentification : un défi pour le code, sans jeton)',
        body: loginSchema,
        response: { 200: envelopeShape(z.union([signInShape, twoFactorChallengeShape])) },
      },
    },
    async (request) => {
      const answer = await auth.login(request.body.email, request.body.password, request.ip);
      return ok(answer, 'challenge_token' in answer ? TWO_FACTOR_MESSAGES.signInStep : MESSAGES.loginSuccess);
    },
  );

  app.post(
    '/api/login/2fa',
    // Throttled by the service like the password, per address and per account.
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'Connexion : le code de vérification',
        body: twoFactorSignInSchema,
        response: { 200: envelopeShape(signInShape) },
      },
    },
    async (request) => ok(await auth.loginWithCode(request.body.challenge_token, request.body.code, request.ip), MESSAGES.loginSuccess),
  );

  app.post(
    '/api/refresh',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Renouvelle la paire de jetons', body: refreshSchema, response: { 200: envelopeShape(tokenPairShape) } },
    },
    async (request) => ok(await sessions.rotate(request.body.refresh_token), MESSAGES.success),
  );

  // The rights travel with the user so the web app follows a change of profile without signing in again.
  app.get(
    '/api/user',
    {
      config: { access: 'first-password' },
      schema: { tags, summary: "L'utilisateur connecté", response: { 200: envelopeShape(currentUserShape) } },
    },
    async (request) => ok(await auth.currentUser(authOf(request).userId), MESSAGES.success),
  );

  app.get(
    '/logout',
    { config: { access: 'first-password' }, schema: { tags, summary: 'Déconnexion', response: { 200: messageShape } } },
    async (request) => {
      await auth.logout(authOf(request).sessionId);
      return { message: MESSAGES.logoutDone };
    },
  );

  app.post(
    '/api/forgot-password',
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Demande de lien de réinitialisation', body: forgotPasswordSchema, response: { 200: messageShape } },
    },
    // Answers once the per-address limit is checked: the link and its mail follow (auth.forgotPassword).
    async (request) => {
      await auth.forgotPassword(request.body.email, request.ip);
      return { message: MESSAGES.forgotAnswer };
    },
  );

  app.post(
    '/api/recovery-password',
    // Throttled per address by the service (429 with Retry-After).
    {
      config: { access: 'public' },
      schema: { tags, summary: 'Nouveau mot de passe par lien', body: recoveryPasswordSchema, response: { 200: messageShape } },
    },
    async (request) => {
      await auth.recoverPassword(request.body.token, request.body.password, request.ip);
      return { message: MESSAGES.passwordChanged };
    },
  );

  app.post(
    '/api/change-first-password',
    {
      config: { access: 'first-password' },
      schema: { tags, summary: 'Remplace le mot de passe temporaire', body: firstPasswordSchema, response: { 200: messageShape } },
    },
    async (request) => {
      await auth.changeFirstPassword(authOf(request).userId, request.body.password);
      return { message: MESSAGES.passwordChanged };
    },
  );

  app.post(
    '/api/user-update',
    {
      // One's own profile, for any signed-in user (docs/decisions-issue13-roles.md).
      config: { access: 'signed-in' },
      schema: { tags, summary: 'Met à jour son profil', body: userUpdateSchema, response: { 200: userAnswer } },
    },
    async (request) => {
      const { userId, sessionId } = authOf(request);
      return ok(await auth.updateProfile(userId, request.body, { ip: request.ip, sessionId }), MESSAGES.profileUpdated);
    },
  );
};
