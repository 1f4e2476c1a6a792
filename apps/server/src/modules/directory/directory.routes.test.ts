import { type CurrentUser, DIRECTORY_MESSAGES, MESSAGES } from '@reformes/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { auditLog, directoryLinks, refreshTokens, roles, userRoles, users } from '../../db/schema/index.ts';
import { type Injector, outcomeOf, stateOf, throughProvider } from '../../test/directory-dance.ts';
import { startTestProvider, type TestProvider } from '../../test/oidc-provider.ts';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.ts';

const PUBLIC_URL = 'http://127.0.0.1:39999';
const CLIENT = { clientId: 'reformes', clientSecret: 'un-secret-de-client-assez-long-pour-les-tests' };

let provider: TestProvider;
/** The session family an access token names (its `sid`). */
const sidOf = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as { sid: string }).sid;
let t: TestApp;

async function startApp(env: Record<string, string> = {}) {
  return createTestApp({
    PUBLIC_URL,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT.clientId,
    OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    ...env,
  });
}

/** A whole dance for `sub`: start on `from`, the provider's pages, the callback on `to` (another instance, maybe). */
async function dance(
  sub: string,
  {
    from = t.app as Injector,
    to = from,
    cookieState,
    via = provider,
  }: { from?: Injector; to?: Injector; cookieState?: string; via?: TestProvider } = {},
) {
  const start = await from.inject({ method: 'GET', url: '/api/v1/auth/oidc/authorize' });
  expect(start.statusCode).toBe(303);
  via.loginNext(sub);
  const callback = await throughProvider(start.headers.location as string, PUBLIC_URL);
  const state = stateOf(start);
  const answer = await to.inject({
    method: 'GET',
    url: callback.slice(PUBLIC_URL.length),
    headers: { cookie: `reformes_directory_state=${cookieState ?? state}` },
  });
  expect(answer.statusCode).toBe(200);
  expect(answer.headers['cache-control']).toBe('no-store');
  return { outcome: outcomeOf(answer), callback, state, answer };
}

async function linkByAccount(email: string, sub: string) {
  const [user] = await t.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  await t.db.insert(directoryLinks).values({ user_id: user.id, issuer: provider.issuer, subject: sub });
  return user.id;
}

async function auditOf(action: string) {
  return t.db.select().from(auditLog).where(eq(auditLog.action, action));
}

beforeAll(async () => {
  provider = await startTestProvider({
    ...CLIENT,
    redirectUris: [`${PUBLIC_URL}/auth/oidc/callback`],
    postLogoutRedirectUris: [`${PUBLIC_URL}/auth/login`],
    backchannelLogoutUri: `${PUBLIC_URL}/api/v1/auth/oidc/backchannel-logout`,
    signedUserinfo: true,
    acrValues: ['eidas1', 'eidas2'],
  });
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

describe('directory sign-in (issue 42), over HTTP against a real provider', () => {
  it('tells the sign-in page what it offers', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/api/v1/auth/options' });
    expect(answer.json().data).toEqual({ directory: { label: "Se connecter avec l'annuaire de l'administration" }, password_signin: true });
  });

  it('starts a dance: 303 to the provider with state, nonce (>= 32 characters), PKCE S256, and the state cookie', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/authorize' });
    expect(start.statusCode).toBe(303);
    const url = new URL(start.headers.location as string);
    expect(url.origin).toBe(new URL(provider.issuer).origin);
    expect(url.searchParams.get('state')?.length).toBeGreaterThanOrEqual(32);
    expect(url.searchParams.get('nonce')?.length).toBeGreaterThanOrEqual(32);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/auth/oidc/callback`);
    const cookie = [start.headers['set-cookie']].flat().join('\n');
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/auth\/oidc\/callback/);
    expect(stateOf(start)).toBe(url.searchParams.get('state'));
  });

  it('signs a linked account in: the session works, the audit says « directory »', async () => {
    provider.setAccount({
      sub: 'agent-saisie',
      email: 'saisie@reformes.test',
      email_verified: true,
      given_name: 'Awa',
      usual_name: 'Saisie',
    });
    await linkByAccount('saisie@reformes.test', 'agent-saisie');
    const { outcome } = await dance('agent-saisie');
    expect(outcome.kind).toBe('signed_in');
    if (outcome.kind !== 'signed_in') return;
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/api/user', headers: bearer(outcome.session.access_token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.email).toBe('saisie@reformes.test');
    expect(me.json().data.directory_link).toMatchObject({ issuer: provider.issuer, subject: 'agent-saisie' });
    const logins = await auditOf('login');
    expect(logins.at(-1)?.details).toMatchObject({ method: 'directory' });
  });

  it('lets a callback land on another instance (the dance is in the database)', async () => {
    const other = await buildApp({ config: t.config, database: t.database, logger: false });
    await other.ready();
    try {
      const { outcome } = await dance('agent-saisie', { from: t.app, to: other });
      expect(outcome.kind).toBe('signed_in');
    } finally {
      await other.close();
    }
  });

  it('refuses a state used twice, a tampered state, and a state without its browser cookie', async () => {
    const { callback, state } = await dance('agent-saisie');
    const again = await t.app.inject({
      method: 'GET',
      url: callback.slice(PUBLIC_URL.length),
      headers: { cookie: `reformes_directory_state=${state}` },
    });
    expect(outcomeOf(again)).toEqual({ kind: 'refused', message: DIRECTORY_MESSAGES.danceFailed, back_to: 'sign_in' });

    const tampered = await dance('agent-saisie', { cookieState: `${'x'.repeat(43)}` });
    expect(tampered.outcome).toMatchObject({ kind: 'refused', message: DIRECTORY_MESSAGES.danceFailed });

    const start = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/authorize' });
    provider.loginNext('agent-saisie');
    const callback2 = await throughProvider(start.headers.location as string, PUBLIC_URL);
    const noCookie = await t.app.inject({ method: 'GET', url: callback2.slice(PUBLIC_URL.length) });
    expect(outcomeOf(noCookie)).toMatchObject({ kind: 'refused', message: DIRECTORY_MESSAGES.danceFailed });
    const reasons = (await auditOf('directory.sign_in')).map((row) => (row.details as { reason: string }).reason);
    // The used state, then the tampered cookie and the missing one (both: not the browser's state).
    expect(reasons.slice(-3)).toEqual(['state_unknown_or_used', 'state_mismatch', 'state_mismatch']);
  });

  it('refuses a dance older than 10 minutes', async () => {
    const start = await t.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/authorize' });
    await t.db.execute(`update directory_dances set created_at = now() - interval '11 minutes'` as never);
    provider.loginNext('agent-saisie');
    const callback = await throughProvider(start.headers.location as string, PUBLIC_URL);
    const answer = await t.app.inject({
      method: 'GET',
      url: callback.slice(PUBLIC_URL.length),
      headers: { cookie: `reformes_directory_state=${stateOf(start)}` },
    });
    expect(outcomeOf(answer)).toMatchObject({ kind: 'refused', message: DIRECTORY_MESSAGES.danceFailed });
  });

  it.each([
    ['a wrong nonce', (claims: Record<string, unknown>) => ({ ...claims, nonce: 'not-the-nonce-of-this-dance-0000000000000' }), {}],
    ['an expired ID token', (claims: Record<string, unknown>) => ({ ...claims, iat: 1_000_000, exp: 1_000_100 }), {}],
    ['another audience', (claims: Record<string, unknown>) => ({ ...claims, aud: 'someone-else' }), {}],
    ['a token signed by another key', (claims: Record<string, unknown>) => claims, { otherKey: true }],
  ])('refuses %s', async (_name, change, options) => {
    provider.tamperNextIdToken(change, options);
    const { outcome } = await dance('agent-saisie');
    expect(outcome).toMatchObject({ kind: 'refused', message: DIRECTORY_MESSAGES.danceFailed, back_to: 'sign_in' });
    const last = (await auditOf('directory.sign_in')).at(-1);
    expect(last?.details).toMatchObject({ reason: 'token_refused' });
  });

  it('reads a userinfo answered as plain JSON as well as a signed one', async () => {
    const plain = await startTestProvider({ ...CLIENT, redirectUris: [`${PUBLIC_URL}/auth/oidc/callback`] });
    const app = await createTestApp({
      PUBLIC_URL,
      OIDC_ISSUER: plain.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
      OIDC_ACCOUNT_CREATION: 'true',
    });
    try {
      plain.setAccount({ sub: 'json', email: 'json.agent@ministere.test', email_verified: true, given_name: 'Jo', usual_name: 'Son' });
      const { outcome } = await dance('json', { from: app.app, via: plain });
      expect(outcome).toMatchObject({ kind: 'refused', message: DIRECTORY_MESSAGES.pendingAccount });
      const [created] = await app.db.select().from(users).where(eq(users.email, 'json.agent@ministere.test'));
      expect(created).toMatchObject({ firstname: 'Jo', lastname: 'Son' });
    } finally {
      await app.close();
      await plain.close();
    }
  });

  it('tells the person to try again later when the provider stops answering after its sign-in page', async () => {
    const brief = await startTestProvider({ ...CLIENT, redirectUris: [`${PUBLIC_URL}/auth/oidc/callback`] });
    const app = await createTestApp({
      PUBLIC_URL,
      OIDC_ISSUER: brief.issuer,
      OIDC_CLIENT_ID: CLIENT.clientId,
      OIDC_CLIENT_SECRET: CLIENT.clientSecret,
    });
    try {
      brief.setAccount({ sub: 'bref', email: 'bref@ministere.test', email_verified: true });
      const start = await app.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/authorize' });
      brief.loginNext('bref');
      const callback = await throughProvider(start.headers.location as string, PUBLIC_URL);
      await brief.close();
      const answer = await app.app.inject({
        method: 'GET',
        url: callback.slice(PUBLIC_URL.length),
        headers: { cookie: `reformes_directory_state=${stateOf(start)}` },
      });
      expect(outcomeOf(answer)).toEqual({ kind: 'refused', message: DIRECTORY_MESSAGES.providerDown, back_to: 'sign_in' });
    } finally {
      await app.close();
    }
  });

  it('refuses an unknown identity when accounts are not created, and says whom to ask', async () => {
    provider.setAccount({ sub: 'inconnu', email: 'inconnu@ministere.test', email_verified: true, given_name: 'Iné', usual_name: 'Connue' });
    const { outcome } = await dance('inconnu');
    expect(outcome).toEqual({ kind: 'refused', message: DIRECTORY_MESSAGES.noAccount, back_to: 'sign_in' });
  });

  it('refuses a blocked account', async () => {
    const blocked = await t.createAccount('saisie');
    await t.db.update(users).set({ is_active: false }).where(eq(users.id, blocked.id));
    provider.setAccount({ sub: 'bloque', email: blocked.email, email_verified: true });
    await linkByAccount(blocked.email, 'bloque');
    const { outcome } = await dance('bloque');
    expect(outcome).toEqual({ kind: 'refused', message: MESSAGES.accountBlocked, back_to: 'sign_in' });
  });

  it('keeps the link when the email changes at the provider (the pair issuer, sub is the identity)', async () => {
    provider.setAccount({ sub: 'agent-saisie', email: 'nouvelle.adresse@ailleurs.test', email_verified: true });
    const { outcome } = await dance('agent-saisie');
    expect(outcome.kind).toBe('signed_in');
    if (outcome.kind === 'signed_in') expect(outcome.session.user.email).toBe('saisie@reformes.test');
    provider.setAccount({ sub: 'agent-saisie', email: 'saisie@reformes.test', email_verified: true });
  });

  it('asks for the TOTP code after the directory when the account has a second factor and no acr is set', async () => {
    const account = await t.createAccount('saisie');
    await t.db.update(users).set({ totp_enabled_at: new Date(), totp_secret: 'x' }).where(eq(users.id, account.id));
    provider.setAccount({ sub: 'double', email: account.email, email_verified: true });
    await linkByAccount(account.email, 'double');
    const { outcome } = await dance('double');
    expect(outcome.kind).toBe('two_factor');
  });

  it('links an account from « Mon compte », then signs it in; the owner unlinks only while a password remains', async () => {
    const account = await t.createAccount('validation');
    const session = await t.login(account.email);
    provider.setAccount({ sub: 'lien-mon-compte', email: 'autre@annuaire.test', email_verified: true });
    const start = await t.app.inject({ method: 'POST', url: '/api/v1/auth/oidc/link', headers: bearer(session.access_token) });
    expect(start.statusCode).toBe(200);
    provider.loginNext('lien-mon-compte');
    const callback = await throughProvider(start.json().data.authorization_url, PUBLIC_URL);
    const linked = await t.app.inject({
      method: 'GET',
      url: callback.slice(PUBLIC_URL.length),
      headers: { cookie: `reformes_directory_state=${stateOf(start)}` },
    });
    expect(outcomeOf(linked)).toEqual({ kind: 'linked' });
    const { outcome } = await dance('lien-mon-compte');
    expect(outcome.kind).toBe('signed_in');
    expect((await auditOf('directory.link')).at(-1)?.details).toMatchObject({ subject: 'lien-mon-compte', by: 'account' });

    const unlink = await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/oidc/link', headers: bearer(session.access_token) });
    expect(unlink.statusCode).toBe(200);
    expect(unlink.json().data.directory_link).toBeNull();
    const noPassword = await t.createAccount('validation');
    await linkByAccount(noPassword.email, 'sans-mot-de-passe');
    await t.db.update(users).set({ password_hash: null }).where(eq(users.id, noPassword.id));
    provider.setAccount({ sub: 'sans-mot-de-passe', email: noPassword.email, email_verified: true });
    const { outcome: signedIn } = await dance('sans-mot-de-passe');
    if (signedIn.kind !== 'signed_in') throw new Error(JSON.stringify(signedIn));
    const refused = await t.app.inject({ method: 'DELETE', url: '/api/v1/auth/oidc/link', headers: bearer(signedIn.session.access_token) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: DIRECTORY_MESSAGES.unlinkNeedsPassword });
  });

  it("lets an admin see and remove a user's link", async () => {
    const account = await t.createAccount('saisie');
    await linkByAccount(account.email, 'vu-par-admin');
    const admin = await t.as('admin');
    const shown = await admin.get(`users/${account.id}`);
    expect(shown.json().data.directory_link).toMatchObject({ subject: 'vu-par-admin' });
    const removed = await admin.delete(`users/${account.id}/directory-link`);
    expect(removed.statusCode).toBe(200);
    expect((await admin.get(`users/${account.id}`)).json().data.directory_link).toBeNull();
    const saisie = await t.as('saisie');
    expect((await saisie.delete(`users/${account.id}/directory-link`)).statusCode).toBe(403);
  });

  it('ends a directory session at the provider too: « Déconnexion » answers the end-session address', async () => {
    const { outcome } = await dance('agent-saisie');
    if (outcome.kind !== 'signed_in') throw new Error(JSON.stringify(outcome));
    const logout = await t.app.inject({ method: 'GET', url: '/api/v1/logout', headers: bearer(outcome.session.access_token) });
    const url = new URL(logout.json().logout_url);
    expect(url.searchParams.get('id_token_hint')).toBeTruthy();
    expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/auth/login`);
    expect(url.searchParams.get('state')).toBeTruthy();
  });

  it('ends every session of a back-channel logout, and refuses its replay and forged tokens', async () => {
    const first = await dance('agent-saisie');
    const second = await dance('agent-saisie');
    if (first.outcome.kind !== 'signed_in' || second.outcome.kind !== 'signed_in') throw new Error('not signed in');
    const token = await provider.logoutTokenFor({ sub: 'agent-saisie' });
    const post = (logoutToken: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/oidc/backchannel-logout',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ logout_token: logoutToken }).toString(),
      });
    expect((await post(token)).statusCode).toBe(200);
    for (const session of [first, second]) {
      if (session.outcome.kind !== 'signed_in') continue;
      const me = await t.app.inject({ method: 'GET', url: '/api/v1/api/user', headers: bearer(session.outcome.session.access_token) });
      expect(me.statusCode).toBe(401);
    }
    // 0 sessions alive: every refresh token of both families is revoked.
    const families = [first, second].map((session) =>
      session.outcome.kind === 'signed_in' ? sidOf(session.outcome.session.access_token) : '',
    );
    const rows = await t.db.select().from(refreshTokens).where(inArray(refreshTokens.family_id, families));
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.filter((row) => row.revoked_at === null)).toEqual([]);
    expect((await post(token)).statusCode).toBe(400);
    expect((await post(await provider.logoutTokenFor({ sub: 'agent-saisie', otherKey: true }))).statusCode).toBe(400);
    expect((await post(await provider.logoutTokenFor({ sub: 'agent-saisie', events: {} }))).statusCode).toBe(400);
    expect((await post(await provider.logoutTokenFor({ sub: 'agent-saisie', aud: 'someone-else' }))).statusCode).toBe(400);
    expect((await post('pas-un-jeton')).statusCode).toBe(400);
  });
});

describe('directory sign-in options', () => {
  it('asks for an acr of OIDC_ACR_VALUES and refuses a lower one; a met acr stands for the second factor', async () => {
    const app = await startApp({ OIDC_ACR_VALUES: 'eidas2' });
    try {
      const account = await app.createAccount('saisie');
      await app.db.update(users).set({ totp_enabled_at: new Date(), totp_secret: 'x' }).where(eq(users.id, account.id));
      await app.db.insert(directoryLinks).values({ user_id: account.id, issuer: provider.issuer, subject: 'niveau' });
      provider.setAccount({ sub: 'niveau', email: account.email, email_verified: true, acr: 'eidas1' });
      const low = await dance('niveau', { from: app.app });
      expect(low.outcome).toMatchObject({ kind: 'refused', message: DIRECTORY_MESSAGES.acrTooLow });
      provider.setAccount({ sub: 'niveau', email: account.email, email_verified: true, acr: 'eidas2' });
      const high = await dance('niveau', { from: app.app });
      expect(high.outcome.kind).toBe('signed_in');

      // A role that demands a second factor, an account that never enrolled one: the acr stands for it.
      await app.db.update(roles).set({ requires_two_factor: true }).where(eq(roles.name, 'validation'));
      const unenrolled = await app.createAccount('validation');
      await app.db.insert(directoryLinks).values({ user_id: unenrolled.id, issuer: provider.issuer, subject: 'sans-totp' });
      provider.setAccount({ sub: 'sans-totp', email: unenrolled.email, email_verified: true, acr: 'eidas2' });
      const strong = await dance('sans-totp', { from: app.app });
      if (strong.outcome.kind !== 'signed_in') throw new Error(JSON.stringify(strong.outcome));
      expect(strong.outcome.session.user.two_factor.required).toBe(false);
      const headers = bearer(strong.outcome.session.access_token);
      const me = await app.app.inject({ method: 'GET', url: '/api/v1/api/user', headers });
      expect(me.json().data.two_factor.required).toBe(false);
      expect((await app.app.inject({ method: 'GET', url: '/api/v1/dash', headers })).statusCode).toBe(200);
      // The same account with its password still has to enrol.
      const byPassword = await app.login(unenrolled.email);
      expect((byPassword.user as unknown as CurrentUser).two_factor.required).toBe(true);
      expect((await app.app.inject({ method: 'GET', url: '/api/v1/dash', headers: bearer(byPassword.access_token) })).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });

  it('links by a verified email only (OIDC_LINK_BY_EMAIL), and creates a pending account that reaches nothing (OIDC_ACCOUNT_CREATION)', async () => {
    const app = await startApp({ OIDC_LINK_BY_EMAIL: 'true', OIDC_ACCOUNT_CREATION: 'true' });
    try {
      const account = await app.createAccount('publication');
      provider.setAccount({ sub: 'par-email-non-verifie', email: account.email, email_verified: false });
      const unverified = await dance('par-email-non-verifie', { from: app.app });
      expect(unverified.outcome).toMatchObject({ kind: 'refused', message: DIRECTORY_MESSAGES.emailNotVerified });
      provider.setAccount({ sub: 'par-email', email: account.email.toUpperCase(), email_verified: true });
      const verified = await dance('par-email', { from: app.app });
      expect(verified.outcome.kind).toBe('signed_in');

      provider.setAccount({
        sub: 'nouvelle',
        email: 'nouvelle.agente@ministere.test',
        email_verified: true,
        given_name: 'Nadia',
        usual_name: 'Nouvelle',
      });
      const created = await dance('nouvelle', { from: app.app });
      expect(created.outcome).toEqual({ kind: 'refused', message: DIRECTORY_MESSAGES.pendingAccount, back_to: 'sign_in' });
      // A claim longer than its field is not taken (the provider's answer is input): no account without an email.
      provider.setAccount({
        sub: 'trop-long',
        email: `${'a'.repeat(250)}@ministere.test`,
        email_verified: true,
        given_name: 'x'.repeat(10_000),
      });
      expect((await dance('trop-long', { from: app.app })).outcome).toMatchObject({
        kind: 'refused',
        message: DIRECTORY_MESSAGES.noAccount,
      });
      const [pending] = await app.db.select().from(users).where(eq(users.email, 'nouvelle.agente@ministere.test'));
      expect(pending).toMatchObject({ firstname: 'Nadia', lastname: 'Nouvelle', structure_id: null, password_hash: null });
      const again = await dance('nouvelle', { from: app.app });
      expect(again.outcome).toMatchObject({ kind: 'refused', message: DIRECTORY_MESSAGES.pendingAccount });
      // An admin gives a role and a structure: the next directory sign-in opens the session.
      const [role] = await app.db.select().from(roles).where(eq(roles.name, 'saisie'));
      const [any] = await app.db.select({ structure_id: users.structure_id }).from(users).where(eq(users.id, account.id));
      await app.db.update(users).set({ structure_id: any.structure_id }).where(eq(users.id, pending.id));
      await app.db.insert(userRoles).values({ user_id: pending.id, role_id: role.id, position: 0 });
      expect((await dance('nouvelle', { from: app.app })).outcome.kind).toBe('signed_in');
      const users_ = await (await app.as('admin')).get('users?isPaginate=false');
      expect(users_.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("OIDC_UPDATE_PROFILE: the provider's name and verified email replace the account's, never its role or structure", async () => {
    const app = await startApp({ OIDC_UPDATE_PROFILE: 'true' });
    try {
      const account = await app.createAccount('saisie');
      await app.db.insert(directoryLinks).values({ user_id: account.id, issuer: provider.issuer, subject: 'profil' });
      provider.setAccount({
        sub: 'profil',
        email: 'nom.change@ministere.test',
        email_verified: true,
        given_name: 'Aminata',
        usual_name: 'Nouveau-Nom',
      });
      const { outcome } = await dance('profil', { from: app.app });
      if (outcome.kind !== 'signed_in') throw new Error(JSON.stringify(outcome));
      expect(outcome.session.user).toMatchObject({
        firstname: 'Aminata',
        lastname: 'Nouveau-Nom',
        email: 'nom.change@ministere.test',
        structure_id: account.structure_id,
        roles: [{ name: 'saisie' }],
      });
    } finally {
      await app.close();
    }
  });

  it('PASSWORD_SIGNIN=false leaves the password to admins only', async () => {
    const app = await startApp({ PASSWORD_SIGNIN: 'false' });
    try {
      const options = await app.app.inject({ method: 'GET', url: '/api/v1/auth/options' });
      expect(options.json().data.password_signin).toBe(false);
      const saisie = await app.app.inject({
        method: 'POST',
        url: '/api/v1/api/login',
        payload: { email: 'saisie@reformes.test', password: 'Reformes2026!' },
      });
      expect(saisie.statusCode).toBe(403);
      expect(saisie.json()).toMatchObject({ message: DIRECTORY_MESSAGES.passwordSignInAdminsOnly });
      await expect(app.login('admin@reformes.test')).resolves.toMatchObject({ token_type: 'Bearer' });
    } finally {
      await app.close();
    }
  });

  it('without OIDC settings: no button, the routes say the directory is not configured', async () => {
    const app = await createTestApp();
    try {
      expect((await app.app.inject({ method: 'GET', url: '/api/v1/auth/options' })).json().data).toEqual({
        directory: null,
        password_signin: true,
      });
      const start = await app.app.inject({ method: 'GET', url: '/api/v1/auth/oidc/authorize' });
      expect(start.statusCode).toBe(404);
      expect(start.json()).toMatchObject({ message: DIRECTORY_MESSAGES.notConfigured });
    } finally {
      await app.close();
    }
  });
});
