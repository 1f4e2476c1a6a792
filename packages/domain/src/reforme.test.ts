import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { parseAmount } from './numbers.ts';
import { objectifSchema, reformeFiltersSchema, reformeSchema, reformeSchemaFor, resultatPayloadSchema, resultatSchema } from './reforme.ts';

/** The messages of a failed parse, by field, as the server's errorsList shows them. */
function errorsOf(schema: z.ZodType, value: unknown): Record<string, string[]> {
  const result = schema.safeParse(value);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.join('.') || 'body';
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}

const valid = {
  libref: 'Réforme de la paie',
  typeref: 'SECTORIELLE',
  nature_id: 1,
  objectif_glob: 'Payer à temps',
  popul_cible: 'Agents publics',
  couverture_id: '2',
  struct_impl: 'Trésor, solde',
  date_debut: '2026-01-15',
  date_fin: '2026-12-31',
};

describe('parseAmount', () => {
  it.each([
    ['1 234,50', 1234.5],
    ['1234.5', 1234.5],
    ['1\u00a0234,5 €', 1234.5],
    ['1\u202f000\u202f000', 1_000_000],
    ['0', 0],
    ['-10', -10],
    [1234.5, 1234.5],
  ])('reads %j as %d', (input, expected) => {
    expect(parseAmount(input)).toBe(expected);
  });

  it.each([[''], ['   '], [null], [undefined]])('reads blank %j as null', (input) => {
    expect(parseAmount(input)).toBeNull();
  });

  it.each([['beaucoup'], ['1,2,3'], ['12.'], ['1e3'], [{}], [true]])('reads %j as NaN', (input) => {
    expect(parseAmount(input)).toBeNaN();
  });
});

describe('reformeSchema', () => {
  it('accepts a complete reform and reads its French amounts', () => {
    const parsed = reformeSchema.parse({ ...valid, montant_prevu: '1 234,50', montant_trealise: '', difficult: '  ', etat_mor: '' });
    expect(parsed).toMatchObject({
      nature_id: 1,
      couverture_id: 2,
      montant_prevu: 1234.5,
      montant_trealise: null,
      difficult: null,
      etat_mor: null,
    });
  });

  it.each([
    ['libref', 'Le Libellé de la réforme est requis'],
    ['typeref', 'La portée de la réforme est requise'],
    ['nature_id', 'La nature est requise'],
    ['objectif_glob', "L'objectif est requis"],
    ['popul_cible', 'La population est requise'],
    ['couverture_id', 'La couverture est requise'],
    ['struct_impl', 'Les structures impliquées sont requises'],
  ])('requires %s with the message "%s", missing or blank', (field, message) => {
    const missing: Record<string, unknown> = { ...valid };
    delete missing[field];
    expect(errorsOf(reformeSchema, missing)).toEqual({ [field]: [message] });
    expect(errorsOf(reformeSchema, { ...valid, [field]: '' })).toEqual({ [field]: [message] });
    expect(errorsOf(reformeSchema, { ...valid, [field]: null })).toEqual({ [field]: [message] });
  });

  it.each([
    ['date_debut', 'La date de début est requise'],
    ['date_fin', 'La date de fin est requise'],
  ])('requires %s with the message "%s", and the period with "La période d\'execution est requise"', (field, message) => {
    const expected = { [field]: [message], periodexe: ["La période d'execution est requise"] };
    const missing: Record<string, unknown> = { ...valid };
    delete missing[field];
    expect(errorsOf(reformeSchema, missing)).toEqual(expected);
    expect(errorsOf(reformeSchema, { ...valid, [field]: '  ' })).toEqual(expected);
    expect(errorsOf(reformeSchema, { ...valid, [field]: null })).toEqual(expected);
  });

  it('requires the period whatever the other fields hold', () => {
    expect(errorsOf(reformeSchema, { date_debut: '2026-01-15' })).toHaveProperty('periodexe', ["La période d'execution est requise"]);
    expect(errorsOf(reformeSchema, { ...valid, date_debut: '', date_fin: '' }).periodexe).toEqual(["La période d'execution est requise"]);
  });

  it('refuses a start date after the end date, on date_fin', () => {
    expect(errorsOf(reformeSchema, { ...valid, date_debut: '2027-01-01', date_fin: '2026-12-31' })).toEqual({
      date_fin: ['La date début ne peut être antérieure à la date fin'],
    });
    expect(reformeSchema.safeParse({ ...valid, date_debut: '2026-12-31', date_fin: '2026-12-31' }).success).toBe(true);
  });

  it('refuses a date that is not a real yyyy-mm-dd day, without a date order message', () => {
    expect(errorsOf(reformeSchema, { ...valid, date_debut: '2026-02-30' })).toEqual({
      date_debut: ['La date doit être au format jj/mm/aaaa'],
    });
    expect(errorsOf(reformeSchema, { ...valid, date_fin: '31/12/2026' })).toEqual({ date_fin: ['La date doit être au format jj/mm/aaaa'] });
  });

  it('refuses a negative or non-numeric amount', () => {
    expect(errorsOf(reformeSchema, { ...valid, montant_prevu: '-1' })).toEqual({
      montant_prevu: ['Le montant doit être un nombre positif ou nul'],
    });
    expect(errorsOf(reformeSchema, { ...valid, montant_trealise: 'dix' })).toEqual({
      montant_trealise: ['Le montant doit être un nombre positif ou nul'],
    });
  });

  it('refuses an unknown reform type or implementation state', () => {
    expect(errorsOf(reformeSchema, { ...valid, typeref: 'AUTRE' })).toEqual({ typeref: ['La portée de la réforme est requise'] });
    expect(errorsOf(reformeSchema, { ...valid, etat_mor: 'abandonnee' })).toHaveProperty('etat_mor');
  });

  it('does not require structure_id of roles other than saisie central', () => {
    for (const role of ['saisie', 'validation', 'publication', undefined])
      expect(reformeSchemaFor(role).safeParse(valid).success).toBe(true);
  });

  it('requires saisie central to give the structure ("La structure est requise")', () => {
    const central = reformeSchemaFor('saisie central');
    expect(errorsOf(central, valid)).toEqual({ structure_id: ['La structure est requise'] });
    expect(errorsOf(central, { ...valid, structure_id: '' })).toEqual({ structure_id: ['La structure est requise'] });
    expect(errorsOf(central, { ...valid, structure_id: 0 })).toEqual({ structure_id: ['La structure est requise'] });
    expect(central.parse({ ...valid, structure_id: '3' }).structure_id).toBe(3);
  });
});

describe('reformeFiltersSchema', () => {
  it('reads the list filters from a query string', () => {
    expect(reformeFiltersSchema.parse({ structure_id: '2', typeref: 'TRANSVERSALE', search: '  paie ' })).toEqual({
      structure_id: 2,
      typeref: 'TRANSVERSALE',
      search: 'paie',
    });
    expect(reformeFiltersSchema.safeParse({ typeref: 'AUTRE' }).success).toBe(false);
  });
});

describe('objectifSchema', () => {
  it('requires a label and a reform', () => {
    expect(errorsOf(objectifSchema, { libobjectif: ' ', reforme_id: 1 })).toEqual({ libobjectif: ["Le Libellé de l'objectif est requis"] });
    expect(errorsOf(objectifSchema, { libobjectif: 'Réduire les délais' })).toEqual({ reforme_id: ['La réforme est requise'] });
  });
});

describe('resultatSchema', () => {
  const result = { objectif_id: 4, libresult: 'Délais réduits', indicateur: 'Délai (jours)', valeur_cible: '15', valeurref: '1 045,5' };

  it('reads the measures as numbers', () => {
    expect(resultatSchema.parse(result)).toEqual({ ...result, valeur_cible: 15, valeurref: 1045.5 });
  });

  it.each([
    ['objectif_id', "Le Libellé de l'objectif est requis"],
    ['libresult', 'Le Libellé du résultat est requis'],
    ['indicateur', "L'indicateur est requis"],
    ['valeur_cible', 'La valeur cible est requise'],
    ['valeurref', 'La valeur référence est requise est requise'],
  ])('requires %s with the message "%s"', (field, message) => {
    const missing: Record<string, unknown> = { ...result };
    delete missing[field];
    expect(errorsOf(resultatSchema, missing)).toEqual({ [field]: [message] });
    expect(errorsOf(resultatSchema, { ...result, [field]: '' })).toEqual({ [field]: [message] });
  });

  it('refuses a measure that is not a number', () => {
    expect(errorsOf(resultatSchema, { ...result, valeur_cible: 'beaucoup' })).toEqual({ valeur_cible: ['La valeur cible est requise'] });
  });

  it('accepts objective_id as the spelling of the objective in the API payload', () => {
    const { objectif_id, ...rest } = result;
    expect(resultatPayloadSchema.parse({ ...rest, objective_id: String(objectif_id) })).toMatchObject({ objectif_id: 4 });
    expect(resultatPayloadSchema.parse({ ...result, objective_id: 9 })).toMatchObject({ objectif_id: 4 });
    expect(errorsOf(resultatPayloadSchema, rest)).toEqual({ objectif_id: ["Le Libellé de l'objectif est requis"] });
  });
});
