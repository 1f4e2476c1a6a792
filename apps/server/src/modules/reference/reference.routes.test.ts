import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../../test/test-app.ts';

describe('reference lists through the CRUD factory', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let saisie: Record<string, string>;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers = admin, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/${url}`, headers, payload });

  beforeAll(async () => {
    t = await createTestApp();
    admin = bearer((await t.login('admin@reformes.test')).access_token);
    saisie = bearer((await t.login('saisie@reformes.test')).access_token);
  });
  afterAll(() => t.close());

  it('lists a whole table without per_page', async () => {
    const response = await call('GET', 'natures');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.isPaginate).toBe(false);
    expect(body.data.map((row: { libnature: string }) => row.libnature)).toEqual(['Administrative', 'Institutionnelle', 'Structurelle']);
  });

  it('paginates with per_page and page', async () => {
    const response = await call('GET', 'structures?per_page=2&page=2');
    const body = response.json();
    expect(body.isPaginate).toBe(true);
    expect(body.data).toMatchObject({ current_page: 2, per_page: 2, total: 5, last_page: 3 });
    expect(body.data.data).toHaveLength(2);
    expect(body.data.data[0].sector).toMatchObject({ libsecteur: 'Finances publiques' });
  });

  it('searches without regard to case or accents', async () => {
    const response = await call('POST', 'structures-search', admin, { search: 'EDUCATION' });
    expect(response.json().data.map((row: { sigl: string }) => row.sigl)).toEqual(['MEN']);
    const bySector = await call('POST', 'structures-search', admin, { search: 'santé' });
    expect(bySector.json().data.map((row: { sigl: string }) => row.sigl)).toEqual(['MS']);
  });

  it('creates, shows, updates and deletes a cover', async () => {
    const created = await call('POST', 'covers', admin, { lib_couvert: 'Départementale' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      message: 'Enregistrement effectué avec succès',
      data: { lib_couvert: 'Départementale', is_active: true },
    });
    const id = created.json().data.id;

    expect((await call('GET', `covers/${id}`)).json().data.lib_couvert).toBe('Départementale');
    const updated = await call('PUT', `covers/${id}`, admin, { lib_couvert: 'Communale' });
    expect(updated.json()).toMatchObject({ message: 'Modification effectuée avec succès', data: { lib_couvert: 'Communale' } });

    const deleted = await call('DELETE', `covers/${id}`);
    expect(deleted.json()).toEqual({ message: 'Suppression effectuée avec succès' });
    expect((await call('GET', `covers/${id}`)).statusCode).toBe(404);
  });

  it('deactivates then activates an entity with state 0/1', async () => {
    const off = await call('GET', 'entities/1/state/0');
    expect(off.json()).toMatchObject({ message: 'Désactivation effectuée avec succès', data: { is_active: false } });
    const on = await call('GET', 'entities/1/state/1');
    expect(on.json()).toMatchObject({ message: 'Activation effectuée avec succès', data: { is_active: true } });
    expect((await call('GET', 'entities/1/state/2')).statusCode).toBe(422);
  });

  it('refuses a missing label with the French message of spec §5 (422)', async () => {
    const response = await call('POST', 'sectors', admin, { libsecteur: '   ' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errorsList).toEqual({ libsecteur: ['Le libellé du secteur est requis'] });
  });

  it('refuses a structure with every field wrong, one message per field (422)', async () => {
    const response = await call('POST', 'structures', admin, { email: 'pas-un-email' });
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
    const response = await call('POST', 'natures', admin, { libnature: 'administrative' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: 'Le libellé « administrative » existe déjà.' });
  });

  it('refuses to delete a sector still used by structures, and deletes nothing (409)', async () => {
    const response = await call('DELETE', 'sectors/1');
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('utilisé par des structures');
    expect((await call('GET', 'sectors/1')).statusCode).toBe(200);
  });

  it('refuses to delete a nature used by reforms (409)', async () => {
    const response = await call('DELETE', 'natures/1');
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('utilisée par des réformes');
  });

  it('refuses to delete a structure that has users (409)', async () => {
    const response = await call('DELETE', 'structures/1');
    expect(response.statusCode).toBe(409);
  });

  it('answers an unknown id with 404 on show, update, delete and state', async () => {
    expect((await call('GET', 'sectors/9999')).statusCode).toBe(404);
    expect((await call('PUT', 'sectors/9999', admin, { libsecteur: 'X' })).statusCode).toBe(404);
    expect((await call('DELETE', 'sectors/9999')).statusCode).toBe(404);
    expect((await call('GET', 'sectors/9999/state/1')).statusCode).toBe(404);
    expect((await call('GET', 'sectors/abc')).json()).toEqual({
      message: 'Les données envoyées sont invalides.',
      errorsList: { id: ['Identifiant invalide'] },
    });
  });

  it('lets saisie read natures for its forms but not change them (403)', async () => {
    expect((await call('GET', 'natures', saisie)).statusCode).toBe(200);
    const response = await call('POST', 'natures', saisie, { libnature: 'Nouvelle' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: "Vous n'avez pas les droits nécessaires pour effectuer cette action." });
  });

  it('refuses anonymous calls (401)', async () => {
    expect((await call('GET', 'sectors', {})).statusCode).toBe(401);
  });

  it('keeps the built-in roles from being renamed or deleted (409) but allows a new one', async () => {
    expect((await call('PUT', 'roles/1', admin, { name: 'super admin' })).statusCode).toBe(409);
    expect((await call('DELETE', 'roles/3')).statusCode).toBe(409);
    const created = await call('POST', 'roles', admin, { name: 'auditeur', canOverwrite: '' });
    expect(created.json().data).toMatchObject({ name: 'auditeur', canOverwrite: false, guard_name: 'api' });
    expect((await call('DELETE', `roles/${created.json().data.id}`)).statusCode).toBe(200);
  });
});
