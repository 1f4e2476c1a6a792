/**
 * Directory sign-in benchmark (issue 42): the server's time for the provider's callback (`GET /auth/oidc/callback`:
 * claim the dance, exchange the code, check the ID token, read the signed userinfo, open the session), against a real
 * OpenID provider on loopback (oidc-provider, as the tests use), through the API (`app.inject`) on a fresh database:
 *   npm run bench:directory                  # BENCH_DANCES=300 by default, the embedded PostgreSQL (or DATABASE_URL)
 * Prints p50/p95/p99 of the callback alone (the provider's own pages are not timed), and the requests our server gets
 * from the provider's answer to the drawn dashboard. Goal: p99 <= 150 ms.
 */
import { eq } from 'drizzle-orm';
import { directoryLinks, users } from '../src/db/schema/index.ts';
import { outcomeOf, stateOf, throughProvider } from '../src/test/directory-dance.ts';
import setUpTestServer from '../src/test/global-setup.ts';
import { startTestProvider } from '../src/test/oidc-provider.ts';
import { createTestApp } from '../src/test/test-app.ts';
import { useTestServer } from '../src/test/test-database.ts';
import type { TestServer } from '../src/test/test-server.ts';

const DANCES = Number(process.env.BENCH_DANCES ?? 300);
const PUBLIC_URL = 'http://127.0.0.1:39998';
const CLIENT = { clientId: 'reformes-bench', clientSecret: 'un-secret-de-client-pour-le-banc-de-mesure' };

const engine = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PostgreSQL';
let server: TestServer | undefined;
const tearDown = await setUpTestServer({ provide: (_key: string, value: TestServer) => (server = value) } as never);
if (server) useTestServer(server);
const provider = await startTestProvider({
  ...CLIENT,
  redirectUris: [`${PUBLIC_URL}/auth/oidc/callback`],
  postLogoutRedirectUris: [`${PUBLIC_URL}/auth/login`],
  backchannelLogoutUri: `${PUBLIC_URL}/api/v1/auth/oidc/backchannel-logout`,
  signedUserinfo: true,
});
const t = await createTestApp({
  PUBLIC_URL,
  OIDC_ISSUER: provider.issuer,
  OIDC_CLIENT_ID: CLIENT.clientId,
  OIDC_CLIENT_SECRET: CLIENT.clientSecret,
  LOGIN_MAX_PER_IP_PER_MINUTE: '100000',
});
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
try {
  const [saisie] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, 'saisie@reformes.test'));
  await t.db.insert(directoryLinks).values({ user_id: saisie.id, issuer: provider.issuer, subject: 'banc' });
  provider.setAccount({ sub: 'banc', email: 'saisie@reformes.test', email_verified: true, given_name: 'Banc', usual_name: 'Mesure' });
  const times: number[] = [];
  for (let index = 0; index < DANCES + 20; index++) {
    const start = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/authorize' });
    provider.loginNext('banc');
    const callback = await throughProvider(start.headers.location as string, PUBLIC_URL);
    const began = performance.now();
    const answer = await t.app.inject({
      method: 'GET',
      url: callback.slice(PUBLIC_URL.length),
      headers: { cookie: `reformes_directory_state=${stateOf(start)}` },
    });
    const ms = performance.now() - began;
    if (outcomeOf(answer).kind !== 'signed_in') throw new Error(`dance ${index}: ${answer.body.slice(-300)}`);
    // The first 20 warm the provider's keys, the statements and the JIT.
    if (index >= 20) times.push(ms);
  }
  times.sort((a, b) => a - b);
  console.log(`engine: ${engine}; ${DANCES} directory sign-ins (after 20 to warm up), provider on loopback, signed userinfo`);
  console.log(
    `callback server time: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, max ${times.at(-1)?.toFixed(1)} ms (goal p99 <= 150 ms)`,
  );
  console.log('requests to our server after the provider answers: 2 (the callback page carrying the session, then the dashboard)');
} finally {
  await t.close();
  await provider.close();
  await tearDown?.();
}
