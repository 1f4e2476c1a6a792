/**
 * A real OpenID provider for the tests (issue 42): oidc-provider, the library the OpenID Foundation's conformance suite
 * is run against, on a loopback port, with one confidential client. HTTP tests log in without a page (`loginNext`); the
 * browser journeys type an identifier in its small French form. It can hand a tampered ID token once
 * (`tamperNextIdToken`) and mint back-channel logout tokens (`logoutTokenFor`). Plain TypeScript: Playwright's
 * journeys start it too (e2e/support/directory-provider.ts).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

export interface DirectoryAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  given_name?: string;
  usual_name?: string;
  family_name?: string;
  uid?: string;
  siret?: string;
  /** The authentication level the login gives (the ID token's `acr`); `eidas1` unless said. */
  acr?: string;
}

export interface TestProviderOptions {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  backchannelLogoutUri?: string;
  /** Userinfo answered as a JWT signed by the provider (ProConnect does so). */
  signedUserinfo?: boolean;
  /** PKCE required (S256), as by default. */
  pkce?: boolean;
  acrValues?: string[];
  /** A fixed port (the journeys' provider); a free one otherwise. */
  port?: number;
  accounts?: DirectoryAccount[];
}

type Claims = Record<string, unknown>;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] as string);

/** The login form of the browser journeys: a label tied to its input, a named button. */
function loginPage(action: string, error?: string): string {
  return `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Annuaire de test</title></head><body><main>
<h1>Annuaire de l'administration (test)</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">
<label for="sub">Identifiant</label> <input id="sub" name="sub" autocomplete="username" required>
<button type="submit">Se connecter à l'annuaire</button>
</form></main></body></html>`;
}

async function formOf(request: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of request) {
    body += chunk;
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

export async function startTestProvider(options: TestProviderOptions) {
  const accounts = new Map<string, DirectoryAccount>((options.accounts ?? []).map((account) => [account.sub, account]));
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256', { extractable: true });
  const kid = randomUUID();
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };
  let nextLogin: string | undefined;
  let tamper: { change: (claims: Claims) => Claims; otherKey: boolean } | undefined;
  let lastIdToken: string | undefined;

  const sign = (claims: JWTPayload, { otherKey = false, typ }: { otherKey?: boolean; typ?: string } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: otherKey ? 'une-autre-cle' : kid, ...(typ ? { typ } : {}) })
      .sign(otherKey ? other.privateKey : privateKey);

  // The issuer names the port: listen first, then build the provider.
  let handler: http.RequestListener = (_request, res) => res.writeHead(503).end();
  const server = http.createServer((request, res) => handler(request, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_post',
        ...(options.backchannelLogoutUri
          ? { backchannel_logout_uri: options.backchannelLogoutUri, backchannel_logout_session_required: true }
          : {}),
        ...(options.signedUserinfo ? { userinfo_signed_response_alg: 'RS256' } : {}),
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: [randomUUID()] },
    scopes: ['openid', 'email', 'profile', 'uid', 'siret', 'given_name', 'usual_name'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'usual_name'],
      given_name: ['given_name'],
      usual_name: ['usual_name'],
      uid: ['uid'],
      siret: ['siret'],
    },
    acrValues: options.acrValues ?? ['eidas1', 'eidas2', 'eidas3'],
    pkce: { required: () => options.pkce !== false },
    features: {
      devInteractions: { enabled: false },
      backchannelLogout: { enabled: true },
      jwtUserinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // No question asked: the journeys' « Déconnexion » comes straight back to the sign-in page.
        logoutSource: async (ctx: KoaContextWithOIDC, form: string) => {
          ctx.body = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Déconnexion de l'annuaire</title></head><body>${form}<input type="hidden" form="op.logoutForm" name="logout" value="yes"><script>document.forms[0].requestSubmit ? document.forms[0].submit() : document.forms[0].submit()</script></body></html>`;
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => {
          const { acr: _acr, ...claims } = account;
          return claims;
        },
      };
    },
    ttl: { Session: 3600, Interaction: 600, Grant: 3600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Erreur de l'annuaire</title></head><body><pre>${escapeHtml(JSON.stringify(out))}</pre></body></html>`;
    },
  };
  const provider = new Provider(issuer, configuration);

  // The token endpoint's answer, once changed: an ID token re-signed with other claims or another key.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path !== '/token' || ctx.method !== 'POST') return;
    const body = ctx.body as { id_token?: string } | undefined;
    if (!body?.id_token) return;
    if (tamper) {
      const { change, otherKey } = tamper;
      tamper = undefined;
      ctx.body = { ...body, id_token: await sign(change(decodeJwt(body.id_token)) as JWTPayload, { otherKey }) };
    }
    lastIdToken = (ctx.body as { id_token: string }).id_token;
  });

  async function interaction(request: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider.interactionDetails(request, res);
    const { prompt, params, uid } = details;
    if (prompt.name === 'login') {
      let sub = nextLogin;
      nextLogin = undefined;
      if (!sub && request.method === 'POST') sub = (await formOf(request)).get('sub')?.trim();
      if (!sub) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(`/interaction/${uid}`));
        return;
      }
      const account = accounts.get(sub);
      if (!account) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(`/interaction/${uid}`, 'Identifiant inconnu'));
        return;
      }
      await provider.interactionFinished(
        request,
        res,
        { login: { accountId: sub, acr: account.acr ?? 'eidas1' } },
        {
          mergeWithLastSubmission: false,
        },
      );
      return;
    }
    // Consent: everything the client asked for, at once.
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session?.accountId as string, clientId: params.client_id as string });
    if (!grant) throw new Error('no grant');
    const missing = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(request, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  const callback = provider.callback();
  handler = (request, res) => {
    if (request.url?.startsWith('/interaction/')) {
      interaction(request, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(String(error));
      });
      return;
    }
    callback(request, res);
  };

  return {
    issuer,
    /** The provider's public key (for checks that bypass the discovery). */
    publicKey,
    setAccount(account: DirectoryAccount) {
      accounts.set(account.sub, account);
    },
    removeAccount(sub: string) {
      accounts.delete(sub);
    },
    /** The next login interaction completes at once as `sub` (HTTP tests, no page). */
    loginNext(sub: string) {
      nextLogin = sub;
    },
    /** The next ID token of the token endpoint has its claims changed by `change`, or is signed by another key. */
    tamperNextIdToken(change: (claims: Claims) => Claims, { otherKey = false }: { otherKey?: boolean } = {}) {
      tamper = { change, otherKey };
    },
    /** The last ID token handed out (its `sid` is the provider's session). */
    lastIdTokenClaims(): Claims | undefined {
      return lastIdToken ? decodeJwt(lastIdToken) : undefined;
    },
    /** A back-channel logout token (OpenID Connect Back-Channel Logout 1.0), signed by the provider unless `otherKey`. */
    async logoutTokenFor(claims: {
      sub?: string;
      sid?: string;
      events?: Claims;
      jti?: string;
      iat?: number;
      aud?: string;
      nonce?: string;
      otherKey?: boolean;
    }) {
      const { otherKey, ...rest } = claims;
      return sign(
        {
          iss: issuer,
          aud: options.clientId,
          iat: Math.floor(Date.now() / 1000),
          jti: randomUUID(),
          events: { 'http://schemas.openid.net/event/backchannel-logout': {} },
          ...rest,
        },
        { otherKey, typ: 'logout+jwt' },
      );
    },
    /** Signs any claims with the provider's key (or another). */
    sign,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type TestProvider = Awaited<ReturnType<typeof startTestProvider>>;
