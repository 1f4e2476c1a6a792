/**
 * The administration's directory of the journeys (issue 42): the tests' real OpenID provider
 * (apps/server/src/test/oidc-provider.ts) as a process Playwright starts beside the app (playwright.config.ts).
 *   node --import tsx e2e/support/directory-provider.ts
 */
import { startTestProvider } from '../../apps/server/src/test/oidc-provider.ts';
import { DIRECTORY_ACCOUNTS, E2E_DIRECTORY } from './directory.ts';

const app = `http://127.0.0.1:${E2E_DIRECTORY.appPort}`;
const provider = await startTestProvider({
  clientId: E2E_DIRECTORY.clientId,
  clientSecret: E2E_DIRECTORY.clientSecret,
  port: E2E_DIRECTORY.providerPort,
  redirectUris: [`${app}/auth/oidc/callback`],
  postLogoutRedirectUris: [`${app}/auth/login`],
  backchannelLogoutUri: `${app}/api/v1/auth/oidc/backchannel-logout`,
  signedUserinfo: true,
  accounts: Object.values(DIRECTORY_ACCOUNTS),
});
console.log(`annuaire de test : ${provider.issuer}`);
const stop = () => void provider.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
