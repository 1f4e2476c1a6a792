import { MESSAGES, AUTH_ROUTES as ROUTES, TWO_FACTOR_MESSAGES } from '@reformes/domain';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientOf } from '../../http/client-key.ts';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { routeTable } from '../../http/route-table.ts';
import type { AuthService, SignInCaller } from './auth.service.ts';
import type { DeviceCookies } from './device-cookie.ts';
import type { Sessions } from './sessions.ts';

export interface AuthRoutesOptions {
  auth: AuthService;
  sessions: Sessions;
  devices: DeviceCookies;
}

/** Spec §7 "Auth and account": the handlers of AUTH_ROUTES (packages/domain/src/routes/auth.ts). */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { auth, sessions, devices }) => {
  const on = routeTable(app);
  const signInCallerOf = (request: FastifyRequest): SignInCaller => ({
    client: clientOf(request),
    isTrustedFor: (email) => devices.isTrustedFor(request, email),
  });
  // A complete sign-in marks its device (device-cookie.ts): a later attempt from it passes the account's ceiling.
  on(ROUTES.login, async (request, reply) => {
    const answer = await auth.login(request.body.email, request.body.password, signInCallerOf(request));
    if ('challenge_token' in answer) return ok(answer, TWO_FACTOR_MESSAGES.signInStep);
    devices.setFor(request, reply, answer.user.email);
    return ok(answer, MESSAGES.loginSuccess);
  });
  on(ROUTES.loginWithCode, async (request, reply) => {
    const answer = await auth.loginWithCode(request.body.challenge_token, request.body.code, signInCallerOf(request));
    devices.setFor(request, reply, answer.user.email);
    return ok(answer, MESSAGES.loginSuccess);
  });
  on(ROUTES.refresh, async (request) => ok(await sessions.rotate(request.body.refresh_token), MESSAGES.success));
  on(ROUTES.currentUser, async (request) => {
    const { userId, sessionId } = authOf(request);
    return ok(await auth.currentUser(userId, sessionId), MESSAGES.success);
  });
  // A directory session also ends at the provider: the web app opens `logout_url` next (issue 42).
  on(ROUTES.logout, async (request) => {
    const { logoutUrl } = await auth.logout(authOf(request).sessionId);
    return logoutUrl ? { message: MESSAGES.logoutDone, logout_url: logoutUrl } : { message: MESSAGES.logoutDone };
  });
  // Answers once the per-address limit is checked: the link and its mail follow (auth.forgotPassword).
  on(ROUTES.forgotPassword, async (request) => {
    await auth.forgotPassword(request.body.email, clientOf(request));
    return { message: MESSAGES.forgotAnswer };
  });
  on(ROUTES.recoverPassword, async (request) => {
    await auth.recoverPassword(request.body.token, request.body.password, clientOf(request));
    return { message: MESSAGES.passwordChanged };
  });
  on(ROUTES.changeFirstPassword, async (request) => {
    await auth.changeFirstPassword(authOf(request).userId, request.body.password);
    return { message: MESSAGES.passwordChanged };
  });
  on(ROUTES.updateProfile, async (request) => {
    const { userId, sessionId } = authOf(request);
    return ok(await auth.updateProfile(userId, request.body, { client: clientOf(request), sessionId }), MESSAGES.profileUpdated);
  });
};
