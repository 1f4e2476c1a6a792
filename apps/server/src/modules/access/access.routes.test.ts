import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.ts';

describe('roles, permissions and profiles', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = admin) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, payload });
  const roleId = async (name: string) =>
    (await call('GET', 'roles')).json().data.find((role: { name: string }) => role.name === name).id as number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await t.login('admin@reformes.test')).access_token);
  });
  afterAll(() => t.close());

  it('revoking then granting a right changes the outcome of the next request, without a restart', async () => {
    const saisie = bearer((await t.login('saisie@reformes.test')).access_token);
    expect((await call('GET', 'natures', undefined, saisie)).statusCode).toBe(200);

    const profile = (await call('GET', `profiles/${await roleId('saisie')}`)).json().data;
    const right = profile.permissions.find((row: { permission: { name: string } }) => row.permission.name === 'natures.list');
    const revoked = await call('PATCH', `profiles/${right.id}`);
    expect(revoked.json()).toEqual({ message: 'Droit retiré avec succès' });
    expect((await call('GET', 'natures', undefined, saisie)).statusCode).toBe(403);

    const granted = await call('POST', 'profiles', { id: profile.id, permissions: [right.permission.id] });
    expect(granted.json().message).toBe('Droit(s) ajouté(s) avec succès');
    expect((await call('GET', 'natures', undefined, saisie)).statusCode).toBe(200);
  });

  it('a deactivated permission stops granting its right to every role', async () => {
    const validation = bearer((await t.login('validation@reformes.test')).access_token);
    const permission = (await call('GET', 'permissions')).json().data.find((row: { name: string }) => row.name === 'covers.list');
    await call('GET', `permissions/${permission.id}/state/0`);
    expect((await call('GET', 'covers', undefined, validation)).statusCode).toBe(403);
    await call('GET', `permissions/${permission.id}/state/1`);
    expect((await call('GET', 'covers', undefined, validation)).statusCode).toBe(200);
  });

  it('creates permissions for a feature and several actions, refuses existing pairs (409) and missing fields (422)', async () => {
    const feature = (await call('GET', 'features')).json().data.find((row: { name: string }) => row.name === 'resultats-validation');
    const invalid = await call('POST', 'permissions', { actions: [] });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errorsList).toEqual({
      feature_id: ['La fonctionnalité système est requise'],
      actions: ['Au moins une action est requise'],
    });
    // 'edit' is seeded (publication validates results); only 'list' is new.
    const created = await call('POST', 'permissions', { feature_id: feature.id, actions: ['list', 'edit'] });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.map((row: { name: string }) => row.name)).toEqual(['resultats-validation.list']);
    const again = await call('POST', 'permissions', { feature_id: feature.id, actions: ['list'] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'Ces permissions existent déjà.' });
  });

  it('creates a role, gives it rights, copies them to another role, revokes one', async () => {
    const auditeur = (await call('POST', 'roles', { name: 'auditeur' })).json().data;
    const controleur = (await call('POST', 'roles', { name: 'contrôleur', canOverwrite: true })).json().data;
    const all = (await call('GET', 'permissions')).json().data as Array<{ id: number; name: string }>;
    const wanted = all.filter((row) => ['natures.list', 'covers.list', 'dashboard.list'].includes(row.name)).map((row) => row.id);
    const granted = await call('POST', 'profiles', { id: auditeur.id, permissions: wanted });
    expect(granted.json().data.permissions).toHaveLength(3);

    expect((await call('POST', 'profiles-copy', { id: auditeur.id })).json().errorsList).toEqual({ role_id: ['Le rôle cible est requis'] });
    const copied = await call('POST', 'profiles-copy', { id: auditeur.id, role_id: controleur.id });
    expect(
      copied
        .json()
        .data.permissions.map((row: { permission: { name: string } }) => row.permission.name)
        .sort(),
    ).toEqual(['covers.list', 'dashboard.list', 'natures.list']);
    const toRevoke = copied.json().data.permissions[0].id;
    await call('PATCH', `profiles/${toRevoke}`);
    expect((await call('GET', `profiles/${controleur.id}`)).json().data.permissions).toHaveLength(2);
    expect((await call('GET', `profiles/${auditeur.id}`)).json().data.permissions).toHaveLength(3);
  });

  it('copies the windows (menu) of a role and shows them as a tree', async () => {
    const target = (await call('POST', 'roles', { name: 'lecteur' })).json().data;
    expect((await call('POST', 'roles-windows-copy', { new_id: target.id })).json().errorsList).toEqual({
      old_id: ["L'ancien rôle est requis"],
    });
    const copied = await call('POST', 'roles-windows-copy', { old_id: await roleId('validation'), new_id: target.id });
    expect(copied.json().data.map((node: { name: string }) => node.name)).toEqual(['Tableau de bord', 'Réformes']);
    const shown = (await call('GET', `roles/${target.id}`)).json().data;
    expect(shown.windows[1].children.map((node: { name: string }) => node.name)).toEqual([
      'Nouvelle',
      'A valider',
      'Mes enregistrements',
      'Suivi des réformes',
    ]);
  });

  it('refuses to delete a role given to users (409) and a permission held by roles (409)', async () => {
    const response = await call('DELETE', `roles/${await roleId('saisie')}`);
    expect(response.statusCode).toBe(409);
    const held = (await call('GET', 'permissions')).json().data.find((row: { name: string }) => row.name === 'dashboard.list');
    expect((await call('DELETE', `permissions/${held.id}`)).json()).toEqual({
      message: 'Cette permission est attribuée à des rôles : retirez-la de leurs profils avant de la supprimer.',
    });
  });

  it('lists every role with its rights in GET profiles', async () => {
    const body = (await call('GET', 'profiles')).json().data;
    expect(body.roles.map((role: { name: string }) => role.name).slice(0, 5)).toEqual([
      'admin',
      'saisie central',
      'saisie',
      'validation',
      'publication',
    ]);
    expect(body.permissions.length).toBeGreaterThan(20);
  });

  it('changes what GET api/user reports as the rights', async () => {
    const session = await t.login('publication@reformes.test');
    const me = await call('GET', 'api/user', undefined, bearer(session.access_token));
    expect(me.json().data.features).toContain('resultats-validation.edit');
  });
});
