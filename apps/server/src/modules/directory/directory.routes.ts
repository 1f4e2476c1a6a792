import { DIRECTORY_MESSAGES, MESSAGES, DIRECTORY_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { invalid, notFound, tooManyRequests } from '../../http/app-error.ts';
import { clientOf } from '../../http/client-key.ts';
import { ok } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { routeTable } from '../../http/route-table.ts';
import type { Throttles } from '../auth/throttles.ts';
import type { DirectoryService } from './directory.service.ts';
import { setStateCookie } from './state-cookie.ts';

export interface DirectoryRoutesOptions {
  /** Undefined when OIDC_ISSUER is not set: the options say so, the other routes answer 404. */
  directory?: DirectoryService;
  label?: string;
  passwordSignIn: boolean;
  throttles: Throttles;
  /** Dances started per client and minute (they write a row each). */
  startsPerMinute: number;
}

const logoutBody = z.object({ logout_token: z.string().min(1).max(16_384) });

/** Issue 42: the directory's routes (the provider's callback is a page: directory-callback.ts). */
export const directoryRoutes: FastifyPluginAsyncZod<DirectoryRoutesOptions> = async (app, options) => {
  const on = routeTable(app);
  const { directory, throttles } = options;
  const configured = () => {
    if (!directory) throw notFound(DIRECTORY_MESSAGES.notConfigured);
    return directory;
  };
  const throttleStarts = async (request: FastifyRequest) => {
    const wait = await throttles.hit(`directory-start:${clientOf(request)}`, options.startsPerMinute, 60);
    if (wait !== undefined) throw tooManyRequests(MESSAGES.tooManyRequests, wait);
  };
  const start = async (request: FastifyRequest, reply: FastifyReply, purpose: 'sign_in' | 'link', userId?: number) => {
    const service = configured();
    await throttleStarts(request);
    const { url, state } = await service.startDance(purpose, userId);
    setStateCookie(request, reply, state);
    return url;
  };

  // The provider posts its logout tokens as a form (Back-Channel Logout 1.0 § 2.5); nothing else here reads forms.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 32_768 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  on(ROUTES.options, async () =>
    ok(
      { directory: directory && options.label ? { label: options.label } : null, password_signin: options.passwordSignIn },
      MESSAGES.success,
    ),
  );
  on(ROUTES.authorize, async (request, reply) => {
    const url = await start(request, reply, 'sign_in');
    return reply.header('cache-control', 'no-store').redirect(url, 303);
  });
  on(ROUTES.link, async (request, reply) => {
    const url = await start(request, reply, 'link', authOf(request).userId);
    return ok({ authorization_url: url }, MESSAGES.success);
  });
  on(ROUTES.unlink, async (request) => ok(await configured().unlinkOwn(authOf(request).userId), DIRECTORY_MESSAGES.unlinked));
  on(ROUTES.adminUnlink, async (request) => {
    await configured().unlinkByAdmin(request.params.id);
    return { message: DIRECTORY_MESSAGES.unlinked };
  });
  on(ROUTES.backchannelLogout, async (request, reply) => {
    const parsed = logoutBody.safeParse(request.body);
    if (!parsed.success) throw invalid({ logout_token: [DIRECTORY_MESSAGES.logoutTokenRefused] });
    await configured().backchannelLogout(parsed.data.logout_token);
    return reply.header('cache-control', 'no-store').status(200).send();
  });
};
