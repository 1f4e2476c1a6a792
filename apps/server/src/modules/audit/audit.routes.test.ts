import { asc, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, permissions, reformes, roles } from '../../db/schema/index.ts';
import { type Caller, createTestApp, DEMO_PASSWORD, type TestApp } from '../../test/test-app.ts';
import { createAuditService, recordAudit } from './audit.service.ts';

type Entry = typeof auditLog.$inferSelect;

const NEW_PASSWORD = 'Quartz-Violet-47!';
const OTHER_PASSWORD = 'Granit-Orange-93?';
const FORBIDDEN = "Vous n'avez pas les droits nécessaires pour effectuer cette action.";

describe('security audit log', () => {
  let t: TestApp;
  let admin: Caller;
  let adminId: number;
  /** Every secret the runs below handle: none may ever show in the log. */
  const secrets = new Set<string>([DEMO_PASSWORD, NEW_PASSWORD, OTHER_PASSWORD]);

  const login = (email: string, password = DEMO_PASSWORD, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/v1/api/login', payload: { email, password, device: 'web' }, remoteAddress });
  const signIn = async (email: string, password = DEMO_PASSWORD) => {
    const session = await t.login(email, password);
    secrets.add(session.access_token).add(session.refresh_token);
    return t.caller(session);
  };

  /** The entries written while `action` ran, oldest first. */
  async function during(action: () => Promise<unknown>): Promise<Entry[]> {
    const [{ last }] = await t.db.select({ last: sql<number>`coalesce(max(${auditLog.id}), 0)::int` }).from(auditLog);
    await action();
    return t.db.select().from(auditLog).where(gt(auditLog.id, last)).orderBy(asc(auditLog.id));
  }

  /** Creates an account through the API; returns its id, email and the temporary password mailed to it. */
  async function createUser(email: string, roleNames = ['saisie']) {
    const response = await admin.post('users', {
      lastname: 'Traore',
      firstname: 'Ibrahim',
      address: 'Rue 4',
      email,
      phone: '0701020304',
      structure_id: 1,
      roles: roleNames,
      is_signer: false,
    });
    expect(response.statusCode).toBe(201);
    const mail = t.outbox().find((message) => message.includes(`To: ${email}`)) ?? '';
    const temporary = /mot de passe temporaire : (\S+)/.exec(mail)?.[1] ?? '';
    secrets.add(temporary);
    return { id: response.json().data.id as number, email, temporary };
  }

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000', LOGIN_MAX_FAILURES: '3' });
    const session = await t.login('admin@reformes.test');
    admin = t.caller(session);
    adminId = session.user.id;
    secrets.add(session.access_token).add(session.refresh_token);
  });
  afterAll(() => t.close());

  describe('sign-in', () => {
    it('writes a success with the account, its email and the IP address', async () => {
      let userId = 0;
      const rows = await during(async () => {
        const response = await login('validation@reformes.test', DEMO_PASSWORD, '203.0.113.7');
        expect(response.statusCode).toBe(200);
        userId = response.json().data.user.id;
        secrets.add(response.json().data.access_token).add(response.json().data.refresh_token);
      });
      expect(rows).toMatchObject([
        { action: 'login', result: 'success', actor_id: userId, actor_email: 'validation@reformes.test', ip: '203.0.113.7', details: {} },
      ]);
      expect(Date.now() - rows[0].created_at.getTime()).toBeLessThan(60_000);
    });

    it('writes a failure with the account for a wrong password', async () => {
      const rows = await during(async () => expect((await login('publication@reformes.test', 'Mauvais-Essai-1')).statusCode).toBe(401));
      secrets.add('Mauvais-Essai-1');
      expect(rows).toMatchObject([
        {
          action: 'login',
          result: 'failure',
          actor_id: expect.any(Number),
          actor_email: 'publication@reformes.test',
          details: { reason: 'wrong_password' },
        },
      ]);
    });

    it('writes a failure with the email as typed for an unknown email, and no account', async () => {
      const rows = await during(async () =>
        expect((await login('Personne.Inconnue@Exemple.test', 'Mauvais-Essai-2')).statusCode).toBe(401),
      );
      secrets.add('Mauvais-Essai-2');
      expect(rows).toMatchObject([
        {
          action: 'login',
          result: 'failure',
          actor_id: null,
          actor_email: 'Personne.Inconnue@Exemple.test',
          details: { reason: 'unknown_email' },
        },
      ]);
    });

    it('writes the lockout when a wrong guess makes the email wait, then each refused attempt', async () => {
      const { email } = await createUser('verrou@reformes.test');
      const rows = await during(async () => {
        for (let attempt = 1; attempt <= 3; attempt++) expect((await login(email, `Mauvais-Verrou-${attempt}`)).statusCode).toBe(401);
        expect((await login(email)).statusCode).toBe(429);
      });
      expect(rows.map((row) => [row.action, row.result, (row.details as { reason?: string }).reason])).toEqual([
        ['login', 'failure', 'wrong_password'],
        ['login', 'failure', 'wrong_password'],
        ['login', 'failure', 'wrong_password'],
        ['lockout', 'success', undefined],
        ['login', 'failure', 'throttled'],
      ]);
      expect(rows[3]).toMatchObject({ actor_email: email, details: { failures: 3, wait_seconds: expect.any(Number) } });
    });

    it('writes a failure for a blocked account (right password)', async () => {
      const user = await createUser('bloque@reformes.test');
      await admin.get(`users/${user.id}/state/0`);
      const rows = await during(async () => expect((await login(user.email, user.temporary)).statusCode).toBe(403));
      expect(rows).toMatchObject([{ action: 'login', result: 'failure', actor_id: user.id, details: { reason: 'blocked' } }]);
    });

    it('writes the logout of the signed-in user', async () => {
      const session = await signIn('central@reformes.test');
      const rows = await during(() => t.app.inject({ method: 'GET', url: '/api/v1/logout', headers: session.headers }));
      expect(rows).toMatchObject([{ action: 'logout', result: 'success', actor_email: 'central@reformes.test', ip: '127.0.0.1' }]);
    });
  });

  describe('refusals (issue 29)', () => {
    it('writes a refused route for a signed-in caller, once a minute per account and route', async () => {
      const saisie = await signIn('saisie@reformes.test');
      const rows = await during(async () => {
        for (let attempt = 0; attempt < 5; attempt++) expect((await saisie.get('audit-logs')).statusCode).toBe(403);
        expect((await saisie.get('backups')).statusCode).toBe(403);
      });
      expect(rows).toMatchObject([
        {
          action: 'access.denied',
          result: 'failure',
          actor_email: 'saisie@reformes.test',
          ip: '127.0.0.1',
          details: { method: 'GET', route: '/api/v1/audit-logs' },
        },
        { action: 'access.denied', details: { method: 'GET', route: '/api/v1/backups' } },
      ]);
    });

    it('writes nothing for an anonymous call (401): there is nobody to name', async () => {
      const rows = await during(() => t.app.inject({ method: 'GET', url: '/api/v1/audit-logs' }));
      expect(rows).toEqual([]);
    });

    it('writes the reuse of a rotated refresh token, with the account as target', async () => {
      const session = await t.login('central@reformes.test');
      secrets.add(session.access_token).add(session.refresh_token);
      const refresh = (token: string) => t.app.inject({ method: 'POST', url: '/api/v1/api/refresh', payload: { refresh_token: token } });
      const rotated = await refresh(session.refresh_token);
      expect(rotated.statusCode).toBe(200);
      secrets.add(rotated.json().data.access_token).add(rotated.json().data.refresh_token);
      const rows = await during(async () => expect((await refresh(session.refresh_token)).statusCode).toBe(401));
      expect(rows).toMatchObject([
        {
          action: 'session.refresh_reuse',
          result: 'failure',
          actor_id: null,
          target_type: 'user',
          target_id: session.user.id,
          target_label: 'central@reformes.test',
          ip: '127.0.0.1',
        },
      ]);
      // The family is revoked: its newest token fails too, and an unknown token writes nothing.
      expect((await refresh(rotated.json().data.refresh_token)).statusCode).toBe(401);
      expect(await during(() => refresh('jeton-inconnu'))).toEqual([]);
    });
  });

  describe('passwords', () => {
    it('writes the first password change of a new account', async () => {
      const user = await createUser('premier@reformes.test');
      const session = await signIn(user.email, user.temporary);
      const rows = await during(async () => {
        const response = await session.post('api/change-first-password', { password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
        expect(response.statusCode).toBe(200);
      });
      expect(rows).toMatchObject([
        {
          action: 'password.first_change',
          result: 'success',
          actor_id: user.id,
          target_type: 'user',
          target_id: user.id,
          target_label: user.email,
        },
      ]);
    });

    it("writes one's own password change, and a wrong old password as a failure", async () => {
      const user = await createUser('change@reformes.test');
      const first = await signIn(user.email, user.temporary);
      await first.post('api/change-first-password', { password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });
      const session = await signIn(user.email, NEW_PASSWORD);
      const wrong = await during(async () => {
        const payload = { old_password: 'Pas-Le-Bon-1', new_password: OTHER_PASSWORD, confirm_password: OTHER_PASSWORD };
        expect((await session.post('api/change-password', payload)).statusCode).toBe(422);
      });
      secrets.add('Pas-Le-Bon-1');
      expect(wrong).toMatchObject([
        { action: 'password.change', result: 'failure', actor_id: user.id, details: { reason: 'wrong_password' } },
      ]);
      const right = await during(async () => {
        const payload = { old_password: NEW_PASSWORD, new_password: OTHER_PASSWORD, confirm_password: OTHER_PASSWORD };
        expect((await session.post('api/change-password', payload)).statusCode).toBe(200);
      });
      expect(right).toMatchObject([{ action: 'password.change', result: 'success', actor_id: user.id, target_id: user.id }]);
    });

    it('writes a reset request (known and unknown email), its completion and a used link', async () => {
      const user = await createUser('oubli@reformes.test');
      const before = t.outbox().length;
      const requested = await during(async () => {
        await t.app.inject({ method: 'POST', url: '/api/v1/api/forgot-password', payload: { email: user.email } });
        await t.app.inject({ method: 'POST', url: '/api/v1/api/forgot-password', payload: { email: 'absent@reformes.test' } });
      });
      expect(requested).toMatchObject([
        { action: 'password.reset_request', result: 'success', actor_id: user.id, actor_email: user.email },
        {
          action: 'password.reset_request',
          result: 'failure',
          actor_id: null,
          actor_email: 'absent@reformes.test',
          details: { reason: 'unknown_email' },
        },
      ]);
      const mail =
        t
          .outbox()
          .slice(before)
          .find((message) => message.includes(`To: ${user.email}`)) ?? '';
      const token = /\/auth\/recovery-password\/([A-Za-z0-9_-]+)/.exec(mail)?.[1] ?? '';
      expect(token).not.toBe('');
      secrets.add(token);
      const payload = { token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
      const completed = await during(async () => {
        expect((await t.app.inject({ method: 'POST', url: '/api/v1/api/recovery-password', payload })).statusCode).toBe(200);
        expect((await t.app.inject({ method: 'POST', url: '/api/v1/api/recovery-password', payload })).statusCode).toBe(400);
      });
      expect(completed).toMatchObject([
        { action: 'password.reset', result: 'success', actor_id: user.id, target_id: user.id, target_label: user.email },
        { action: 'password.reset', result: 'failure', actor_id: null, details: { reason: 'invalid_token' } },
      ]);
    });

    it("writes an administrator's reset of another account's password", async () => {
      const user = await createUser('remise@reformes.test');
      const rows = await during(async () => {
        const payload = { id: user.id, email: user.email, password: OTHER_PASSWORD, password_confirmation: OTHER_PASSWORD };
        expect((await admin.post('reset-password', payload)).statusCode).toBe(200);
      });
      expect(rows).toMatchObject([
        {
          action: 'password.admin_reset',
          actor_id: adminId,
          actor_email: 'admin@reformes.test',
          target_id: user.id,
          target_label: user.email,
        },
      ]);
    });
  });

  describe('accounts', () => {
    it('writes create, update, block, unblock and delete with the account as target', async () => {
      let id = 0;
      const created = await during(async () => {
        id = (await createUser('cycle@reformes.test', ['validation'])).id;
      });
      expect(created).toMatchObject([
        {
          action: 'user.create',
          actor_id: adminId,
          target_type: 'user',
          target_id: id,
          target_label: 'cycle@reformes.test',
          details: { roles: ['validation'] },
        },
      ]);
      const changes = await during(async () => {
        const body = {
          lastname: 'Traore',
          firstname: 'Ibrahim',
          address: 'Rue 5',
          email: 'cycle2@reformes.test',
          phone: '0701020304',
          structure_id: 1,
          roles: ['publication'],
          is_signer: false,
        };
        expect((await admin.put(`users/${id}`, body)).statusCode).toBe(200);
        expect((await admin.get(`users/${id}/state/0`)).statusCode).toBe(200);
        expect((await admin.get(`users/${id}/state/1`)).statusCode).toBe(200);
        expect((await admin.delete(`users/${id}`)).statusCode).toBe(200);
      });
      expect(changes.map((row) => [row.action, row.target_id, row.target_label, row.actor_id])).toEqual([
        ['user.update', id, 'cycle2@reformes.test', adminId],
        ['user.block', id, 'cycle2@reformes.test', adminId],
        ['user.unblock', id, 'cycle2@reformes.test', adminId],
        ['user.delete', id, 'cycle2@reformes.test', adminId],
      ]);
      expect(changes[0].details).toEqual({ roles: ['publication'] });
    });
  });

  describe('roles and rights', () => {
    it('writes role create, rename, state and delete', async () => {
      let id = 0;
      const rows = await during(async () => {
        id = (await admin.post('roles', { name: 'Auditeurs' })).json().data.id;
        await admin.put(`roles/${id}`, { name: 'Auditeurs internes' });
        await admin.get(`roles/${id}/state/0`);
        await admin.delete(`roles/${id}`);
      });
      expect(rows.map((row) => [row.action, row.target_type, row.target_id, row.target_label])).toEqual([
        ['role.create', 'role', id, 'Auditeurs'],
        ['role.update', 'role', id, 'Auditeurs internes'],
        ['role.status', 'role', id, 'Auditeurs internes'],
        ['role.delete', 'role', id, 'Auditeurs internes'],
      ]);
      expect(rows[2].details).toEqual({ is_active: false });
    });

    it('writes grant, state, revoke, copy of rights and copy of menus on the role, the permissions in the details', async () => {
      const roleId = (await admin.post('roles', { name: 'Lecteurs' })).json().data.id as number;
      const [usersList] = await t.db.select({ id: permissions.id }).from(permissions).where(eq(permissions.name, 'users.list'));
      const [validation] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'validation'));
      let profileId = 0;
      const rows = await during(async () => {
        const granted = await admin.post('profiles', { id: roleId, permissions: [usersList.id] });
        expect(granted.statusCode).toBe(200);
        profileId = granted.json().data.permissions[0].id;
        expect((await admin.get(`profiles/${profileId}/state/0`)).statusCode).toBe(200);
        expect((await admin.delete(`profiles/${profileId}`)).statusCode).toBe(200);
        expect((await admin.post('profiles-copy', { id: validation.id, role_id: roleId })).statusCode).toBe(200);
        expect((await admin.post('roles-windows-copy', { old_id: validation.id, new_id: roleId })).statusCode).toBe(200);
      });
      expect(rows.map((row) => [row.action, row.target_type, row.target_id, row.target_label, row.details])).toEqual([
        ['profile.grant', 'role', roleId, 'Lecteurs', { permissions: ['users.list'] }],
        ['profile.status', 'role', roleId, 'Lecteurs', { permission: 'users.list', is_active: false }],
        ['profile.revoke', 'role', roleId, 'Lecteurs', { permission: 'users.list' }],
        ['profile.copy', 'role', roleId, 'Lecteurs', { from_role: 'validation' }],
        ['role.windows_copy', 'role', roleId, 'Lecteurs', { from_role: 'validation' }],
      ]);
      for (const row of rows) expect(row.actor_id).toBe(adminId);
    });

    it('writes the changes of the permission catalogue', async () => {
      // The dashboard is only ever listed: "dashboard.delete" is a pair nobody created.
      const [feature] = (await admin.get('features')).json().data.filter((row: { name: string }) => row.name === 'dashboard');
      let id = 0;
      const rows = await during(async () => {
        const created = await admin.post('permissions', { feature_id: feature.id, actions: ['delete'] });
        expect(created.statusCode).toBe(201);
        id = created.json().data[0].id;
        expect((await admin.get(`permissions/${id}/state/0`)).statusCode).toBe(200);
        expect((await admin.delete(`permissions/${id}`)).statusCode).toBe(200);
      });
      expect(rows.map((row) => [row.action, row.target_type, row.target_id, row.target_label])).toEqual([
        ['permission.create', 'permission', id, 'dashboard.delete'],
        ['permission.status', 'permission', id, 'dashboard.delete'],
        ['permission.delete', 'permission', id, 'dashboard.delete'],
      ]);
    });
  });

  describe('backups and publication', () => {
    it('writes backup create, download and delete', async () => {
      let made: Array<{ id: number; name: string; type: string }> = [];
      const created = await during(async () => {
        const response = await admin.get('api/save-db');
        expect(response.statusCode).toBe(200);
        made = response.json().data;
      });
      expect(created).toMatchObject([{ action: 'backup.create', actor_id: adminId, target_type: 'backup', target_id: made[0].id }]);
      expect((created[0].details as { files: string[] }).files.sort()).toEqual(made.map((row) => row.name).sort());
      const doc = made.find((row) => row.type === 'doc') as { id: number; name: string };
      const used = await during(async () => {
        expect((await admin.get(`storage/backups/docs/${doc.name}`)).statusCode).toBe(200);
        expect((await admin.delete(`backups/${doc.id}`)).statusCode).toBe(200);
      });
      expect(used.map((row) => [row.action, row.target_id, row.target_label, row.actor_id])).toEqual([
        ['backup.download', doc.id, doc.name, adminId],
        ['backup.delete', doc.id, doc.name, adminId],
      ]);
    });

    it('writes publish and unpublish with the reform as target', async () => {
      const publication = await signIn('publication@reformes.test');
      const [waiting] = await t.db
        .select({ id: reformes.id, libref: reformes.libref })
        .from(reformes)
        .where(sql`${reformes.stage} = 3 and not ${reformes.isPublished}`)
        .limit(1);
      const rows = await during(async () => {
        expect((await publication.get(`reformes/state/publish/${waiting.id}`)).statusCode).toBe(200);
        expect((await publication.get(`reformes/state/unpublish/${waiting.id}`)).statusCode).toBe(200);
      });
      expect(rows.map((row) => [row.action, row.target_type, row.target_id, row.target_label, row.actor_email])).toEqual([
        ['reforme.publish', 'reforme', waiting.id, waiting.libref, 'publication@reformes.test'],
        ['reforme.unpublish', 'reforme', waiting.id, waiting.libref, 'publication@reformes.test'],
      ]);
    });
  });

  describe('what is never written', () => {
    it('writes nothing for a change that is rolled back', async () => {
      // saisie recorded reforms: deleting the account fails on the database's foreign key, after the delete ran.
      const [saisie] = (await admin.get('users?per_page=100'))
        .json()
        .data.data.filter((u: { email: string }) => u.email === 'saisie@reformes.test');
      const rows = await during(async () => expect((await admin.delete(`users/${saisie.id}`)).statusCode).toBe(409));
      expect(rows).toEqual([]);

      const direct = await during(async () => {
        await t.db
          .transaction(async (tx) => {
            await recordAudit(tx, { action: 'role.create', actor: {}, target: { type: 'role', label: 'Jamais' } });
            throw new Error('rollback');
          })
          .catch(() => undefined);
      });
      expect(direct).toEqual([]);
    });

    it('holds no password, token, hash or temporary password in any column of any row', async () => {
      const rows = await t.db.execute<Record<string, unknown>>(sql`select * from audit_log`);
      expect(rows.rows.length).toBeGreaterThan(30);
      const leaks: string[] = [];
      for (const row of rows.rows) {
        for (const [column, value] of Object.entries(row)) {
          const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
          if (/\$argon2/.test(text)) leaks.push(`${column}: hash in ${text}`);
          for (const secret of secrets) if (secret && text.includes(secret)) leaks.push(`${column}: secret in ${text}`);
        }
      }
      expect(leaks).toEqual([]);
    });

    it('drops secret-looking keys from the details', async () => {
      const rows = await during(() =>
        recordAudit(t.db, {
          action: 'login',
          actor: {},
          details: { reason: 'wrong_password', password: 'x', nested: { refresh_token: 'y', code: 'z', kept: 1 } },
        }),
      );
      expect(rows[0].details).toEqual({ reason: 'wrong_password', nested: { kept: 1 } });
    });
  });

  describe('reading the log', () => {
    it('is for admin only: 403 for every other role, 401 without a session', async () => {
      for (const email of ['central@reformes.test', 'saisie@reformes.test', 'validation@reformes.test', 'publication@reformes.test']) {
        const session = await signIn(email);
        for (const url of ['audit-logs', 'audit-logs/export.csv']) {
          const response = await session.get(url);
          expect(response.statusCode, `${email} ${url}`).toBe(403);
          expect(response.json()).toMatchObject({ message: FORBIDDEN });
        }
      }
      expect((await t.anonymous.get('audit-logs')).statusCode).toBe(401);
      expect((await t.anonymous.get('audit-logs/export.csv')).statusCode).toBe(401);
    });

    it('pages the newest first with the true total', async () => {
      const [{ total }] = await t.db.select({ total: sql<number>`count(*)::int` }).from(auditLog);
      const response = await admin.get('audit-logs?per_page=10&page=2');
      expect(response.statusCode).toBe(200);
      const page = response.json().data;
      expect(page).toMatchObject({ current_page: 2, per_page: 10, total, last_page: Math.ceil(total / 10) });
      expect(page.data).toHaveLength(10);
      const newest = await t.db
        .select({ id: auditLog.id })
        .from(auditLog)
        .orderBy(sql`${auditLog.created_at} desc, ${auditLog.id} desc`)
        .limit(20);
      expect(page.data.map((row: { id: number }) => row.id)).toEqual(newest.slice(10).map((row) => row.id));
      expect(page.data[0]).not.toHaveProperty('search_text');
      expect(Number.isNaN(Date.parse(page.data[0].created_at))).toBe(false);
    });

    it('filters by action, result, actor, period and free text (the French label of an action too)', async () => {
      const list = async (query: string) => {
        const response = await admin.get(`audit-logs?per_page=100&${query}`);
        expect(response.statusCode, response.body).toBe(200);
        return response.json().data.data as Entry[];
      };
      const failures = await list('action=login&result=failure');
      expect(failures.length).toBeGreaterThanOrEqual(6);
      for (const row of failures) expect(row).toMatchObject({ action: 'login', result: 'failure' });

      const byActor = await list('actor=INCONNUE@exemple');
      expect(byActor.map((row) => row.actor_email)).toEqual(['Personne.Inconnue@Exemple.test']);

      const byText = await list('search=203.0.113');
      expect(byText.map((row) => row.ip)).toEqual(['203.0.113.7']);
      const byLabel = await list('search=dépublication');
      expect(byLabel.map((row) => row.action)).toEqual(['reforme.unpublish']);
      const byTarget = await list('search=auditeurs internes');
      expect(byTarget.map((row) => row.action).sort()).toEqual(['role.delete', 'role.status', 'role.update']);

      const today = new Date().toISOString().slice(0, 10);
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
      expect((await list(`action=logout&from=${today}&to=${today}`)).length).toBe(1);
      expect(await list(`action=logout&from=${tomorrow}`)).toEqual([]);
      const instant = new Date(Date.now() - 3_600_000).toISOString();
      expect((await list(`action=logout&from=${encodeURIComponent(instant)}`)).length).toBe(1);
      expect(await list(`action=logout&to=${encodeURIComponent(instant)}`)).toEqual([]);
    });

    it('refuses an unknown action, a bad date and a period that ends before it starts (422)', async () => {
      for (const query of ['action=inconnue', 'from=12/07/2026', 'from=2026-07-12&to=2026-07-11']) {
        const response = await admin.get(`audit-logs?${query}`);
        expect(response.statusCode, query).toBe(422);
        expect(response.json().errorsList).toBeDefined();
      }
      expect((await admin.get('audit-logs?from=2026-07-12&to=2026-07-12')).statusCode).toBe(200);
      expect((await admin.get('audit-logs?action=&result=')).statusCode).toBe(200);
    });
  });

  describe('CSV export', () => {
    it('exports the filtered entries: BOM, ";" separator, French labels, dates in the given time zone', async () => {
      const response = await admin.get('audit-logs/export.csv?action=login&result=failure&tz=Europe/Paris');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toMatch(/^attachment; filename="journal-audit-\d{4}-\d{2}-\d{2}\.csv"$/);
      expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const lines = response.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines.at(-1)).toBe('');
      expect(lines[0]).toBe('"Date (Europe/Paris)";"Utilisateur";"Action";"Cible";"Résultat";"Adresse IP";"Détails"');
      const unknown = lines.find((line) => line.includes('Personne.Inconnue@Exemple.test')) ?? '';
      expect(unknown).toMatch(
        /^"\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}";"Personne\.Inconnue@Exemple\.test";"Connexion";"";"Échec \(email inconnu\)";"127\.0\.0\.1";"\{""reason"":""unknown_email""\}"$/,
      );
      const [{ total }] = await t.db
        .select({ total: sql<number>`count(*)::int` })
        .from(auditLog)
        .where(sql`${auditLog.action} = 'login' and ${auditLog.result} = 'failure'`);
      expect(lines.length - 2).toBe(total);
    });

    it('writes the export itself in the log, with its filters', async () => {
      const rows = await during(() => admin.get('audit-logs/export.csv?action=logout'));
      expect(rows).toMatchObject([{ action: 'audit.export', actor_id: adminId, details: { filters: { action: 'logout' } } }]);
    });

    it('neutralises formulas: a cell starting with = + - @ gets a leading quote', async () => {
      // Emails as typed may start with + or - (the others are covered by audit-csv.test.ts).
      for (const email of ['-2+3@exemple.test', '+cmd@exemple.test']) expect((await login(email, 'Formule-1')).statusCode).toBe(401);
      const body = (await admin.get('audit-logs/export.csv?action=login&actor=exemple.test')).body;
      const emails = body
        .split('\r\n')
        .slice(1, -1)
        .map((line) => line.split(';')[1]);
      expect(emails).toEqual(expect.arrayContaining([`"'-2+3@exemple.test"`, `"'+cmd@exemple.test"`]));
      for (const line of body.split('\r\n').slice(1, -1)) {
        for (const cell of line.split(';')) expect(cell, line).not.toMatch(/^"?[=+\-@]/);
      }
    });

    it('reads the log page by page: 2 500 entries come in pages of at most 1 000, all of them', async () => {
      await t.db.execute(sql`
        insert into audit_log (action, result, actor_email, created_at)
        select 'user.update', 'success', 'masse' || n || '@reformes.test', now() - make_interval(secs => n)
        from generate_series(1, 2500) as n`);
      const sizes: number[] = [];
      const ids = new Set<number>();
      for await (const page of createAuditService(t.db).pages({ actor: 'masse' })) {
        sizes.push(page.length);
        for (const row of page) ids.add(row.id);
      }
      expect(sizes).toEqual([1000, 1000, 500]);
      expect(ids.size).toBe(2500);

      const response = await admin.get('audit-logs/export.csv?actor=masse');
      const lines = response.body.split('\r\n');
      expect(lines.length - 2).toBe(2500);
      expect(lines[1]).toContain('masse1@reformes.test');
      expect(lines[2500]).toContain('masse2500@reformes.test');
    });

    it('refuses an unknown time zone (422)', async () => {
      expect((await admin.get('audit-logs/export.csv?tz=Mars/Olympus')).statusCode).toBe(422);
    });
  });
});
