import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

describe('reference lists through the CRUD factory', () => {
  let t: TestApp;
  let admin: Caller;
  let saisie: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('admin');
    saisie = await t.as('saisie');
  });
  afterAll(() => t.close());

  it('lists a whole table without per_page', async () => {
    const response = await admin.get('natures');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.isPaginate).toBe(false);
    expect(body.data.map((row: { libnature: string }) => row.libnature)).toEqual(['Administrative', 'Institutionnelle', 'Structurelle']);
  });

  it('paginates with per_page and page', async () => {
    const response = await admin.get('structures?per_page=2&page=2');
    const body = response.json();
    expect(body.isPaginate).toBe(true);
    expect(body.data).toMatchObject({ current_page: 2, per_page: 2, total: 5, last_page: 3 });
    expect(body.data.data).toHaveLength(2);
    expect(body.data.data[0].sector).toMatchObject({ libsecteur: 'Finances publiques' });
  });

  it('searches without regard to case or accents', async () => {
    const response = await admin.post('structures-search', { search: 'EDUCATION' });
    expect(response.json().data.map((row: { sigl: string }) => row.sigl)).toEqual(['MEN']);
    const bySector = await admin.post('structures-search', { search: 'santé' });
    expect(bySector.json().data.map((row: { sigl: string }) => row.sigl)).toEqual(['MS']);
  });

  it('creates, shows, updates and deletes a cover', async () => {
    const created = await admin.post('covers', { lib_couvert: 'Départementale' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      message: 'Enregistrement effectué avec succès',
      data: { lib_couvert: 'Départementale', is_active: true },
    });
    const id = created.json().data.id;

    expect((await admin.get(`covers/${id}`)).json().data.lib_couvert).toBe('Départementale');
    const updated = await admin.put(`covers/${id}`, { lib_couvert: 'Communale' });
    expect(updated.json()).toMatchObject({ message: 'Modification effectuée avec succès', data: { lib_couvert: 'Communale' } });

    const deleted = await admin.delete(`covers/${id}`);
    expect(deleted.json()).toMatchObject({ message: 'Suppression effectuée avec succès' });
    expect((await admin.get(`covers/${id}`)).statusCode).toBe(404);
  });

  it('deactivates then activates an entity with state 0/1', async () => {
    const off = await admin.get('entities/1/state/0');
    expect(off.json()).toMatchObject({ message: 'Désactivation effectuée avec succès', data: { is_active: false } });
    const on = await admin.get('entities/1/state/1');
    expect(on.json()).toMatchObject({ message: 'Activation effectuée avec succès', data: { is_active: true } });
    expect((await admin.get('entities/1/state/2')).statusCode).toBe(422);
  });

  it('refuses a missing label with the French message of spec §5 (422)', async () => {
    const response = await admin.post('sectors', { libsecteur: '   ' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errorsList).toEqual({ libsecteur: ['Le libellé du secteur est requis'] });
  });

  it('refuses a structure with every field wrong, one message per field (422)', async () => {
    const response = await admin.post('structures', { email: 'pas-un-email' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errorsList).toEqual({
      designation: ['Le libellé est requis'],
      sigl: ['Le sigle est requis'],
      adresse_struct: ["L'adresse est requise"],
      email: ["L'email n'est pas valide"],
      telephone: ['Le contact est requis'],
      sector_id: ['Le libellé du secteur est requis'],
    });
  });

  it('refuses a duplicate label whatever its case (409)', async () => {
    const response = await admin.post('natures', { libnature: 'administrative' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ message: 'Le libellé « administrative » existe déjà.' });
  });

  it('refuses to delete a sector still used by structures, and deletes nothing (409)', async () => {
    const response = await admin.delete('sectors/1');
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('utilisé par des structures');
    expect((await admin.get('sectors/1')).statusCode).toBe(200);
  });

  it('refuses to delete a nature used by reforms (409)', async () => {
    const response = await admin.delete('natures/1');
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('utilisée par des réformes');
  });

  it('refuses to delete a structure that has users (409)', async () => {
    const response = await admin.delete('structures/1');
    expect(response.statusCode).toBe(409);
  });

  it('answers an unknown id with 404 on show, update, delete and state', async () => {
    expect((await admin.get('sectors/9999')).statusCode).toBe(404);
    expect((await admin.put('sectors/9999', { libsecteur: 'X' })).statusCode).toBe(404);
    expect((await admin.delete('sectors/9999')).statusCode).toBe(404);
    expect((await admin.get('sectors/9999/state/1')).statusCode).toBe(404);
    expect((await admin.get('sectors/abc')).json()).toMatchObject({
      message: 'Les données envoyées sont invalides.',
      errorsList: { id: ['Identifiant invalide'] },
    });
  });

  it('lets saisie read natures for its forms but not change them (403)', async () => {
    expect((await saisie.get('natures')).statusCode).toBe(200);
    const response = await saisie.post('natures', { libnature: 'Nouvelle' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ message: "Vous n'avez pas les droits nécessaires pour effectuer cette action." });
  });

  it('refuses anonymous calls (401)', async () => {
    expect((await t.anonymous.get('sectors')).statusCode).toBe(401);
  });

  it('keeps the built-in roles from being renamed or deleted (409) but allows a new one', async () => {
    expect((await admin.put('roles/1', { name: 'super admin' })).statusCode).toBe(409);
    expect((await admin.delete('roles/3')).statusCode).toBe(409);
    const created = await admin.post('roles', { name: 'auditeur', canOverwrite: '' });
    expect(created.json().data).toMatchObject({ name: 'auditeur', canOverwrite: false, guard_name: 'api' });
    expect((await admin.delete(`roles/${created.json().data.id}`)).statusCode).toBe(200);
  });
});
