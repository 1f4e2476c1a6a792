import * as client from 'openid-client';
import type { Config } from '../../config.ts';

export type DirectorySettings = NonNullable<Config['oidc']>;

/** How long a call to the provider (discovery, token, userinfo, keys) may take before the dance fails in French. */
const PROVIDER_TIMEOUT_SECONDS = 10;

/**
 * The provider as openid-client 6 sees it, discovered from `<issuer>/.well-known/openid-configuration` at first use (not
 * at start: a provider down does not stop the app, and the next attempt discovers again). Every check of the ID token
 * (signature, issuer, audience, expiry with 30 s of tolerance, nonce) and of a signed userinfo is the library's: with
 * `enableNonRepudiationChecks` it verifies the signatures of what the token endpoint and userinfo answer too.
 */
export function createDirectoryClient(settings: DirectorySettings, publicUrl: string) {
  let discovered: Promise<client.Configuration> | undefined;
  const insecure = new URL(settings.issuer).protocol === 'http:';

  async function discover(): Promise<client.Configuration> {
    return client.discovery(
      new URL(settings.issuer),
      settings.clientId,
      { [client.clockTolerance]: 30 },
      client.ClientSecretPost(settings.clientSecret),
      {
        timeout: PROVIDER_TIMEOUT_SECONDS,
        // http:// issuers are refused in production by config.ts: this is a provider on this machine (tests, a trial).
        execute: insecure ? [client.enableNonRepudiationChecks, client.allowInsecureRequests] : [client.enableNonRepudiationChecks],
      },
    );
  }

  return {
    settings,
    redirectUri: `${publicUrl}/auth/oidc/callback`,
    backchannelLogoutUri: `${publicUrl}/api/v1/auth/oidc/backchannel-logout`,
    postLogoutRedirectUri: `${publicUrl}/auth/login`,
    async configuration(): Promise<client.Configuration> {
      discovered ??= discover().catch((error: unknown) => {
        discovered = undefined;
        throw error;
      });
      return discovered;
    },
  };
}

export type DirectoryClient = ReturnType<typeof createDirectoryClient>;
