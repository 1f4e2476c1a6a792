import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

const FORBIDDEN = "Vous n'avez pas les droits nécessaires pour effectuer cette action.";
const CHOSEN_PASSWORD = 'Observer2026!';

/**
 * Spec §2.3 "Any other role: no menu": an administrator creates a role of its own and gives it to a
 * new account. The account must still sign in, land on a dashboard and use its own account page.
 */
describe('a user whose role is none of the five', () => {
  let t: TestApp;
  let admin: Caller;
  let observer: Caller;
  let roleId: number;
  let structureId: number;
  const email = 'ines.observatrice@reformes.test';

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('admin');
    const role = await admin.post('roles', { name: 'observateur' });
    expect(role.statusCode).toBe(201);
    roleId = role.json().data.id;
    const structures = (await admin.get('structures')).json().data as Array<{ id: number; sigl: string }>;
    structureId = structures.find((structure) => structure.sigl === 'MS')?.id as number;
    const created = await admin.post('users', {
      lastname: 'Observatrice',
      firstname: 'Inès',
      address: 'Cité administrative',
      email,
      phone: '0700000001',
      structure_id: structureId,
      roles: ['observateur'],
      is_signer: false,
    });
    expect(created.statusCode, created.body).toBe(201);

    const mail = t.outbox().find((message) => message.includes(email));
    const temporary = mail && /mot de passe temporaire : (\S+)/.exec(mail)?.[1];
    const first = await t.login(email, temporary);
    const changed = await t.caller(first).post('api/change-first-password', {
      password: CHOSEN_PASSWORD,
      confirm_password: CHOSEN_PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    observer = await t.as(email, CHOSEN_PASSWORD);
  });
  afterAll(() => t.close());

  it('signs in with no right at all: a new role is created bare', async () => {
    const login = await t.login(email, CHOSEN_PASSWORD);
    expect(login.features).toEqual([]);
    expect(login.user).toMatchObject({ must_change_password: false, roles: [{ name: 'observateur' }] });
    const me = await observer.get('api/user');
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ email, roles: [{ name: 'observateur' }], features: [] });
  });

  it('is refused the dashboard counters while its role lacks dashboard.list (403, the web shows an empty state)', async () => {
    const response = await observer.get('dash/');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: FORBIDDEN });
  });

  it('edits its own profile and changes its own password without any right (signed-in routes)', async () => {
    const updated = await observer.post('api/user-update', { email });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().data).toMatchObject({ email });

    const password = await observer.post('api/change-password', {
      old_password: CHOSEN_PASSWORD,
      new_password: 'Observer2027!',
      confirm_password: 'Observer2027!',
    });
    expect(password.statusCode, password.body).toBe(200);
    // The change ends every session: sign in again with the new password, then put the old one back.
    expect((await observer.get('api/user')).statusCode).toBe(401);
    const again = await t.as(email, 'Observer2027!');
    const back = await again.post('api/change-password', {
      old_password: 'Observer2027!',
      new_password: CHOSEN_PASSWORD,
      confirm_password: CHOSEN_PASSWORD,
    });
    expect(back.statusCode, back.body).toBe(200);
    observer = await t.as(email, CHOSEN_PASSWORD);
  });

  it('still reaches nothing else: reforms, users, reference lists, backups (403)', async () => {
    for (const url of ['reformes', 'users', 'sectors', 'structures', 'natures', 'covers', 'backups', 'roles', 'profiles']) {
      const response = await observer.get(url);
      expect(response.statusCode, url).toBe(403);
    }
  });

  it('sees the three common cards of its own structure once an administrator grants dashboard.list', async () => {
    const permissions = (await admin.get('permissions')).json().data as Array<{ id: number; name: string }>;
    const dashboardList = permissions.find((permission) => permission.name === 'dashboard.list')?.id;
    const granted = await admin.post('profiles', { id: roleId, permissions: [dashboardList] });
    expect(granted.statusCode, granted.body).toBeLessThan(300);

    const response = await observer.get('dash/');
    expect(response.statusCode).toBe(200);
    // Demo data: 18 of the 30 reforms belong to MS, 6 of them administrative and 6 institutional;
    // no workflow stage belongs to this role, so nothing is pending for it.
    expect(response.json().data).toMatchObject({ total_reforme: 18, total_reforme_admin: 6, total_reforme_ins: 6, total_pending: 0 });

    const ownView = await observer.get(`dash/${encodeURIComponent('observateur')}`);
    expect(ownView.statusCode).toBe(200);
    expect(ownView.json().data).toMatchObject({ total_reforme: 18, total_pending: 0 });
    const otherView = await observer.get('dash/saisie');
    expect(otherView.statusCode).toBe(403);
  });
});
