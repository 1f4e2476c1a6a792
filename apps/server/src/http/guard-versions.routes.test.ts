import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { bearer, createTestApp, type TestApp } from '../test/test-app.ts';

/**
 * Issue 33, item 2: the guard keeps what it loaded for a session while the user's auth version (migration 0014) has
 * not moved, and checks that version on every request. Each case warms that memory on both instances first, then
 * changes something in the database (directly, as another instance or an administrator would) and expects the very
 * next request on either instance to be judged on the new state.
 */
describe('the guard follows every change at the next request, on every instance (issue 33)', () => {
  let a: TestApp;
  let b: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    a = await createTestApp();
    b = await buildApp({ config: a.config, database: a.database, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const run = (query: string) => a.database.pool.query(query);

  /** A fresh account of `role` signed in, and a GET of `url` as it on both instances. */
  async function signedIn(role: string, url: string) {
    const user = await a.createAccount(role);
    const session = await a.login(user.email);
    const get = async (app: 'a' | 'b') =>
      (await (app === 'a' ? a.app : b).inject({ method: 'GET', url: `/api/v1/${url}`, headers: bearer(session.access_token) })).statusCode;
    // Warm both instances (twice: the second request is served from what the first loaded).
    for (const app of ['a', 'b', 'a', 'b'] as const) expect(await get(app)).toBe(200);
    return { user, session, get };
  }

  it('a blocked account is refused at once (401)', async () => {
    const { user, get } = await signedIn('saisie', 'api/user');
    await run(`update users set is_active = false where id = ${user.id}`);
    expect(await get('a')).toBe(401);
    expect(await get('b')).toBe(401);
  });

  it('a right taken from the role is refused at once (403), and given back at once', async () => {
    const { get } = await signedIn('validation', 'reformes?per_page=1&page=1');
    const grant = (active: boolean) =>
      run(`update role_permissions set is_active = ${active}
        where permission_id = (select id from permissions where name = 'reformes.list') and role_id = (select id from roles where name = 'validation')`);
    await grant(false);
    try {
      expect(await get('b')).toBe(403);
      expect(await get('a')).toBe(403);
    } finally {
      await grant(true);
    }
    expect(await get('b')).toBe(200);
  });

  it('a role removed from the account, or switched off, takes its rights at once', async () => {
    const { user, get } = await signedIn('validation', 'reformes?per_page=1&page=1');
    await run(`update roles set is_active = false where name = 'validation'`);
    try {
      expect(await get('a')).toBe(403);
    } finally {
      await run(`update roles set is_active = true where name = 'validation'`);
    }
    expect(await get('a')).toBe(200);
    await run(`delete from user_roles where user_id = ${user.id}`);
    expect(await get('b')).toBe(403);
  });

  it('a permission switched off is refused at once', async () => {
    const { get } = await signedIn('validation', 'reformes?per_page=1&page=1');
    await run(`update permissions set is_active = false where name = 'reformes.list'`);
    try {
      expect(await get('b')).toBe(403);
    } finally {
      await run(`update permissions set is_active = true where name = 'reformes.list'`);
    }
    expect(await get('b')).toBe(200);
  });

  it('a logout on one instance ends the session on the other at once (401)', async () => {
    const { session, get } = await signedIn('saisie', 'api/user');
    const logout = await a.app.inject({ method: 'GET', url: '/api/v1/logout', headers: bearer(session.access_token) });
    expect(logout.statusCode, logout.body).toBe(200);
    expect(await get('b')).toBe(401);
  });

  it('a temporary password set by an administrator confines the session at once (403)', async () => {
    const { user, get } = await signedIn('validation', 'reformes?per_page=1&page=1');
    await run(`update users set must_change_password = true where id = ${user.id}`);
    expect(await get('b')).toBe(403);
  });

  it('a session past its family expiry is refused without any change in the database', async () => {
    const { session, get } = await signedIn('saisie', 'api/user');
    await a.db.execute(
      sql`update refresh_tokens set expires_at = now() + interval '1 second' where family_id = (select family_id from refresh_tokens where user_id = ${session.user.id} limit 1)`,
    );
    expect(await get('a')).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await get('a')).toBe(401);
    expect(await get('b')).toBe(401);
  });
});
