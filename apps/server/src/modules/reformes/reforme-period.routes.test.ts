import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

const valid = {
  libref: 'Réforme sans période',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Documenter la période',
  popul_cible: 'Usagers',
  couverture_id: 1,
  struct_impl: 'Direction du budget',
  date_debut: '2026-03-01',
  date_fin: '2026-09-30',
};

describe('the period of execution of a reform (spec §5 periodexe)', () => {
  let t: TestApp;
  let saisie: Caller;

  beforeAll(async () => {
    t = await createTestApp();
    saisie = await t.as('saisie');
  });
  afterAll(() => t.close());

  it.each([
    ['date_debut', 'La date de début est requise'],
    ['date_fin', 'La date de fin est requise'],
  ])('refuses a reform without %s (422) with "La période d\'execution est requise" under periodexe', async (field, message) => {
    const missing: Record<string, unknown> = { ...valid };
    delete missing[field];
    const response = await saisie.post('reformes', missing);
    expect(response.statusCode).toBe(422);
    expect(response.json().errorsList).toEqual({ [field]: [message], periodexe: ["La période d'execution est requise"] });
  });

  it('says so even when other fields are wrong too', async () => {
    const response = await saisie.post('reformes', { libref: 'Presque vide', date_debut: '', date_fin: '' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errorsList).toMatchObject({
      date_debut: ['La date de début est requise'],
      date_fin: ['La date de fin est requise'],
      periodexe: ["La période d'execution est requise"],
    });
  });

  it('builds the period from the dates, whatever periodexe the form sends', async () => {
    const created = await saisie.post('reformes', { ...valid, periodexe: 'autre chose' });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.periodexe).toBe('Du 01/03/2026 au 30/09/2026');
    const updated = await saisie.put(`reformes/${created.json().data.id}`, { ...valid, date_fin: '' });
    expect(updated.statusCode).toBe(422);
    expect(updated.json().errorsList.periodexe).toEqual(["La période d'execution est requise"]);
  });
});
