import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

const newUser = {
  lastname: 'Kone',
  firstname: 'Mariam',
  address: 'Rue 12',
  email: 'mariam.kone@reformes.test',
  phone: '0701020304',
  structure_id: 1,
  roles: ['saisie'],
  is_signer: '',
};

describe('user accounts', () => {
  let t: TestApp;
  let admin: Caller;
  let adminId: number;
  const temporaryPasswordIn = (mail: string) => /mot de passe temporaire : (\S+)/.exec(mail)?.[1];

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('admin');
    adminId = admin.session.user.id;
  });
  afterAll(() => t.close());

  it('lists users page by page with their roles and structure, never a password hash', async () => {
    const response = await admin.get('users?per_page=10&page=1');
    const body = response.json();
    expect(body.data).toMatchObject({ current_page: 1, per_page: 10, total: 5, last_page: 1 });
    const saisie = body.data.data.find((user: { email: string }) => user.email === 'saisie@reformes.test');
    expect(saisie).toMatchObject({ roles: [{ name: 'saisie' }], structure: { sigl: 'MS' }, is_active: true });
    expect(response.body).not.toContain('password_hash');
    expect(response.body).not.toContain('$argon2');
  });

  it('searches users by name without accents or case', async () => {
    const response = await admin.post('users-search', { search: 'MOREAU' });
    expect(response.json().data.map((user: { email: string }) => user.email)).toEqual(['validation@reformes.test']);
  });

  it('creates an account whose temporary password arrives by mail and must be changed', async () => {
    const response = await admin.post('users', newUser);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      message: 'Compte créé avec succès : un mot de passe temporaire a été envoyé par email.',
      data: { email: newUser.email, is_signer: false, must_change_password: true, roles: [{ name: 'saisie' }] },
    });
    const mail = t.outbox().find((message) => message.includes(newUser.email));
    const temporary = mail && temporaryPasswordIn(mail);
    expect(temporary).toBeTruthy();
    const login = await t.login(newUser.email, temporary);
    expect(login.user).toMatchObject({ must_change_password: true });
  });

  it('refuses a missing field, a phone with letters and an unknown role (422)', async () => {
    const response = await admin.post('users', { ...newUser, email: 'x@reformes.test', lastname: '', phone: '07AB', roles: ['chef'] });
    expect(response.statusCode).toBe(422);
    expect(response.json().errorsList).toMatchObject({
      lastname: ['Le nom est requis'],
      phone: ['Le téléphone ne doit contenir que des chiffres'],
    });
    const unknownRole = await admin.post('users', { ...newUser, email: 'y@reformes.test', roles: ['chef'] });
    expect(unknownRole.statusCode).toBe(422);
    expect(unknownRole.json().errorsList).toEqual({ roles: ['Rôle inconnu : chef'] });
    const noRole = await admin.post('users', { ...newUser, email: 'z@reformes.test', roles: [] });
    expect(noRole.json().errorsList).toEqual({ roles: ['Au moins un rôle est requis'] });
  });

  it('refuses an email already used (409) and writes nothing', async () => {
    const before = (await admin.get('users')).json().data.length;
    const response = await admin.post('users', { ...newUser, email: 'SAISIE@reformes.test' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: 'Cet email est déjà utilisé par un autre compte.' });
    expect((await admin.get('users')).json().data.length).toBe(before);
  });

  it('updates a user and keeps the order of its roles (the first is its role)', async () => {
    const created = (await admin.post('users', { ...newUser, email: 'ordre@reformes.test' })).json().data;
    const response = await admin.put(`users/${created.id}`, {
      ...newUser,
      email: 'ordre@reformes.test',
      roles: ['validation', 'saisie'],
      is_signer: true,
    });
    expect(response.json().data).toMatchObject({ roles: [{ name: 'validation' }, { name: 'saisie' }], is_signer: true });
  });

  it('blocks a user: its sessions end at once and it cannot sign in (403)', async () => {
    const session = await t.login('validation@reformes.test');
    const validationId = session.user.id;
    const blocked = await admin.get(`users/${validationId}/state/0`);
    expect(blocked.json()).toMatchObject({ data: { is_active: false } });
    expect((await t.caller(session).get('api/user')).statusCode).toBe(401);
    const refused = await t.app.inject({ method: 'POST', url: '/api/v1/api/refresh', payload: { refresh_token: session.refresh_token } });
    expect(refused.statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/api/login',
      payload: { email: 'validation@reformes.test', password: 'Reformes2026!' },
    });
    expect(login.statusCode).toBe(403);
    expect(login.json()).toMatchObject({ message: "Votre compte est bloqué. Contactez l'administrateur." });
    await admin.get(`users/${validationId}/state/1`);
    expect((await t.login('validation@reformes.test')).user.id).toBe(validationId);
  });

  it('resets a password: the new one is temporary and old sessions end', async () => {
    const session = await t.login('publication@reformes.test');
    const mismatch = await admin.post('reset-password', {
      id: session.user.id,
      email: 'publication@reformes.test',
      password: 'Nouveau2026!',
      password_confirmation: 'Autre2026!',
    });
    expect(mismatch.json().errorsList).toEqual({ password_confirmation: ['Nouveaux mots de passe non identique'] });
    const short = await admin.post('reset-password', {
      id: session.user.id,
      email: 'publication@reformes.test',
      password: 'court',
      password_confirmation: 'court',
    });
    expect(short.json().errorsList.password).toEqual(['Le mot de passe doit contenir au moins 8 caractères']);

    const reset = await admin.post('reset-password', {
      id: session.user.id,
      email: 'publication@reformes.test',
      password: 'Nouveau2026!',
      password_confirmation: 'Nouveau2026!',
    });
    expect(reset.json()).toMatchObject({ message: 'Mot de passe réinitialisé avec succès' });
    expect((await t.caller(session).get('api/user')).statusCode).toBe(401);
    expect((await t.login('publication@reformes.test', 'Nouveau2026!')).user).toMatchObject({ must_change_password: true });
  });

  it('refuses to delete a user who recorded reforms (409) or oneself, deletes a new one', async () => {
    const saisieId = (await admin.post('users-search', { search: 'saisie@reformes.test' })).json().data[0].id;
    expect((await admin.delete(`users/${saisieId}`)).json().message).toContain('désactivez son compte');
    expect((await admin.delete(`users/${adminId}`)).statusCode).toBe(409);
    expect((await admin.get(`users/${adminId}/state/0`)).statusCode).toBe(409);
    const created = (await admin.post('users', { ...newUser, email: 'jetable@reformes.test' })).json().data;
    expect((await admin.delete(`users/${created.id}`)).statusCode).toBe(200);
    expect((await admin.get(`users/${created.id}`)).statusCode).toBe(404);
  });

  it('is reserved to roles with the users rights (403 for saisie)', async () => {
    const saisie = await t.as('saisie');
    expect((await saisie.get('users')).statusCode).toBe(403);
  });
});
