import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

describe('roles, permissions and profiles', () => {
  let t: TestApp;
  let admin: Caller;
  const roleId = async (name: string) =>
    (await admin.get('roles')).json().data.find((role: { name: string }) => role.name === name).id as number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('admin');
  });
  afterAll(() => t.close());

  it('revoking then granting a right changes the outcome of the next request, without a restart', async () => {
    const saisie = await t.as('saisie');
    expect((await saisie.get('natures')).statusCode).toBe(200);

    const profile = (await admin.get(`profiles/${await roleId('saisie')}`)).json().data;
    const right = profile.permissions.find((row: { permission: { name: string } }) => row.permission.name === 'natures.list');
    const revoked = await admin.patch(`profiles/${right.id}`);
    expect(revoked.json()).toMatchObject({ message: 'Droit retiré avec succès' });
    expect((await saisie.get('natures')).statusCode).toBe(403);

    const granted = await admin.post('profiles', { id: profile.id, permissions: [right.permission.id] });
    expect(granted.json().message).toBe('Droit(s) ajouté(s) avec succès');
    expect((await saisie.get('natures')).statusCode).toBe(200);
  });

  it('a deactivated permission stops granting its right to every role', async () => {
    const validation = await t.as('validation');
    const permission = (await admin.get('permissions')).json().data.find((row: { name: string }) => row.name === 'covers.list');
    await admin.get(`permissions/${permission.id}/state/0`);
    expect((await validation.get('covers')).statusCode).toBe(403);
    await admin.get(`permissions/${permission.id}/state/1`);
    expect((await validation.get('covers')).statusCode).toBe(200);
  });

  it('creates permissions for a feature and several actions, refuses existing pairs (409) and missing fields (422)', async () => {
    const feature = (await admin.get('features')).json().data.find((row: { name: string }) => row.name === 'resultats-validation');
    const invalid = await admin.post('permissions', { actions: [] });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errorsList).toEqual({
      feature_id: ['La fonctionnalité système est requise'],
      actions: ['Au moins une action est requise'],
    });
    // 'edit' is seeded (publication validates results); only 'list' is new.
    const created = await admin.post('permissions', { feature_id: feature.id, actions: ['list', 'edit'] });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.map((row: { name: string }) => row.name)).toEqual(['resultats-validation.list']);
    const again = await admin.post('permissions', { feature_id: feature.id, actions: ['list'] });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ message: 'Ces permissions existent déjà.' });
  });

  it('creates a role, gives it rights, copies them to another role, revokes one', async () => {
    const auditeur = (await admin.post('roles', { name: 'auditeur' })).json().data;
    const controleur = (await admin.post('roles', { name: 'contrôleur', canOverwrite: true })).json().data;
    const all = (await admin.get('permissions')).json().data as Array<{ id: number; name: string }>;
    const wanted = all.filter((row) => ['natures.list', 'covers.list', 'dashboard.list'].includes(row.name)).map((row) => row.id);
    const granted = await admin.post('profiles', { id: auditeur.id, permissions: wanted });
    expect(granted.json().data.permissions).toHaveLength(3);

    expect((await admin.post('profiles-copy', { id: auditeur.id })).json().errorsList).toEqual({ role_id: ['Le rôle cible est requis'] });
    const copied = await admin.post('profiles-copy', { id: auditeur.id, role_id: controleur.id });
    expect(
      copied
        .json()
        .data.permissions.map((row: { permission: { name: string } }) => row.permission.name)
        .sort(),
    ).toEqual(['covers.list', 'dashboard.list', 'natures.list']);
    const toRevoke = copied.json().data.permissions[0].id;
    await admin.patch(`profiles/${toRevoke}`);
    expect((await admin.get(`profiles/${controleur.id}`)).json().data.permissions).toHaveLength(2);
    expect((await admin.get(`profiles/${auditeur.id}`)).json().data.permissions).toHaveLength(3);
  });

  it('copies the windows (menu) of a role and shows them as a tree', async () => {
    const target = (await admin.post('roles', { name: 'lecteur' })).json().data;
    expect((await admin.post('roles-windows-copy', { new_id: target.id })).json().errorsList).toEqual({
      old_id: ["L'ancien rôle est requis"],
    });
    const copied = await admin.post('roles-windows-copy', { old_id: await roleId('validation'), new_id: target.id });
    expect(copied.json().data.map((node: { name: string }) => node.name)).toEqual(['Tableau de bord', 'Réformes']);
    const shown = (await admin.get(`roles/${target.id}`)).json().data;
    expect(shown.windows[1].children.map((node: { name: string }) => node.name)).toEqual([
      'Nouvelle',
      'A valider',
      'Mes enregistrements',
      'Suivi des réformes',
    ]);
  });

  it('refuses to delete a role given to users (409) and a permission held by roles (409)', async () => {
    const response = await admin.delete(`roles/${await roleId('saisie')}`);
    expect(response.statusCode).toBe(409);
    const held = (await admin.get('permissions')).json().data.find((row: { name: string }) => row.name === 'dashboard.list');
    expect((await admin.delete(`permissions/${held.id}`)).json()).toMatchObject({
      message: 'Cette permission est attribuée à des rôles : retirez-la de leurs profils avant de la supprimer.',
    });
  });

  it('lists every role with its rights in GET profiles', async () => {
    const body = (await admin.get('profiles')).json().data;
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
    const me = await t.caller(session).get('api/user');
    expect(me.json().data.features).toContain('resultats-validation.edit');
  });
});
