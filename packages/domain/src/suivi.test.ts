import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { suiviSchema } from './suivi.ts';
import {
  exactPercentageText,
  isBeforeLastRecord,
  isResultValidable,
  measureText,
  percentageText,
  RESULT_VALIDATION_MESSAGES,
  rateText,
  resultStatusText,
  resultValidationOf,
  SUIVI_MESSAGES,
} from './suivi-rules.ts';
import './zod-locale.ts';

/** The French messages of a failed parse, by field, as the API's errorsList carries them. */
function errorsOf(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.');
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

const valid = { result_id: 4, taux_realisat: 35, valeur_realise: 1200, date: '2026-03-15' };

describe('isBeforeLastRecord', () => {
  const records = [{ date: '2026-01-10' }, { date: '2026-03-15' }, { date: '2025-12-01' }];

  it('accepts any date when the result has no record yet', () => {
    expect(isBeforeLastRecord('1999-01-01', [])).toBe(false);
  });

  it('refuses a date earlier than the latest record, whatever the order of the records', () => {
    expect(isBeforeLastRecord('2026-03-14', records)).toBe(true);
    expect(isBeforeLastRecord('2026-01-10', records)).toBe(true);
  });

  it('accepts the same day as the latest record, and any later day', () => {
    expect(isBeforeLastRecord('2026-03-15', records)).toBe(false);
    expect(isBeforeLastRecord('2026-03-16', records)).toBe(false);
  });

  it('compares days only, not the time of a timestamp', () => {
    expect(isBeforeLastRecord('2026-03-15', [{ date: '2026-03-15T23:59:00Z' }])).toBe(false);
    expect(isBeforeLastRecord('2026-03-15T08:00:00Z', [{ date: '2026-03-15' }])).toBe(false);
  });
});

describe('resultStatusText', () => {
  it('reads "Validé" for a validated result in the follow-up view', () => {
    expect(resultStatusText(1)).toBe('Validé');
  });

  it('reads "En attente d\'atteinte" for a pending result, in both views', () => {
    expect(resultStatusText(0)).toBe("En attente d'atteinte");
    expect(resultStatusText(0, true)).toBe("En attente d'atteinte");
  });

  it('reads "atteint" for a validated result in the validation list', () => {
    expect(resultStatusText(1, true)).toBe('atteint');
  });
});

describe('suiviSchema', () => {
  it('accepts a complete record and turns text numbers into numbers', () => {
    expect(suiviSchema.parse({ ...valid, taux_realisat: '35,5', valeur_realise: '1 200', result_id: '4' })).toEqual({
      result_id: 4,
      taux_realisat: 35.5,
      valeur_realise: 1200,
      date: '2026-03-15',
    });
  });

  it('accepts zero for the rate and the value', () => {
    expect(errorsOf(suiviSchema, { ...valid, taux_realisat: 0, valeur_realise: '0' })).toEqual({});
  });

  it('asks for a result when none is selected: "Veuillez sélectionner un résultat"', () => {
    for (const result_id of [undefined, null, '', 0]) {
      expect(errorsOf(suiviSchema, { ...valid, result_id })).toEqual({ result_id: [SUIVI_MESSAGES.resultRequired] });
    }
    expect(SUIVI_MESSAGES.resultRequired).toBe('Veuillez sélectionner un résultat');
  });

  it('refuses a negative or non-numeric rate and value with their French messages', () => {
    expect(errorsOf(suiviSchema, { ...valid, taux_realisat: -1, valeur_realise: '-0,5' })).toEqual({
      taux_realisat: ['Le taux de réalisation doit être un nombre positif ou nul'],
      valeur_realise: ['La valeur réalisée doit être un nombre positif ou nul'],
    });
    expect(errorsOf(suiviSchema, { ...valid, taux_realisat: 'beaucoup', valeur_realise: undefined })).toEqual({
      taux_realisat: ['Le taux de réalisation doit être un nombre positif ou nul'],
      valeur_realise: ['La valeur réalisée doit être un nombre positif ou nul'],
    });
  });

  it('requires a real calendar date', () => {
    expect(errorsOf(suiviSchema, { ...valid, date: '' })).toEqual({ date: ['La date est requise'] });
    expect(errorsOf(suiviSchema, { ...valid, date: undefined })).toEqual({ date: ['La date est requise'] });
    expect(errorsOf(suiviSchema, { ...valid, date: '2026-02-30' })).toEqual({ date: ['La date doit être au format jj/mm/aaaa'] });
  });

  it('keeps the wording of the date rule of spec §5', () => {
    expect(SUIVI_MESSAGES.dateTitle).toBe('Date Incorrect');
    expect(SUIVI_MESSAGES.dateBeforeLast).toBe('On ne peut avoir une date antérieur au dernier enregistrement!');
  });
});

describe('percentageText', () => {
  const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

  it('shows one decimal at most, the French way', () => {
    expect(plain(percentageText(100 / 3))).toBe('33,3 %');
    expect(plain(percentageText(200 / 3))).toBe('66,7 %');
    expect(plain(percentageText(50))).toBe('50 %');
    expect(plain(percentageText(0))).toBe('0 %');
    expect(plain(percentageText(100))).toBe('100 %');
  });

  it('never rounds an unfinished objective up to 100 % nor a started one down to 0 %', () => {
    expect(plain(percentageText(99.96))).toBe('99,9 %');
    expect(plain(percentageText(0.02))).toBe('0,1 %');
  });
});

describe('exactPercentageText', () => {
  const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

  it('writes the unrounded value as JavaScript does, with a French comma', () => {
    expect(plain(exactPercentageText(100 / 3))).toBe('33,333333333333336 %');
    expect(plain(exactPercentageText(200 / 3))).toBe('66,66666666666667 %');
    expect(plain(exactPercentageText((2 / 3) * 100))).toBe('66,66666666666666 %');
    expect(plain(exactPercentageText(12.5))).toBe('12,5 %');
  });

  it('adds no trailing zeros nor binary noise', () => {
    expect(plain(exactPercentageText(50))).toBe('50 %');
    expect(plain(exactPercentageText(0))).toBe('0 %');
    expect(plain(exactPercentageText(100))).toBe('100 %');
    expect(plain(exactPercentageText(0.1 + 0.2))).toBe('0,30000000000000004 %');
  });

  it('never falls into exponent notation', () => {
    expect(plain(exactPercentageText(1e-7))).toBe('0,0000001 %');
    expect(plain(exactPercentageText(1.5e-8))).toBe('0,000000015 %');
    expect(plain(exactPercentageText(-2.5))).toBe('-2,5 %');
  });
});

describe('measureText', () => {
  const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

  it('writes the numeric strings of the API in French', () => {
    expect(plain(measureText('5000'))).toBe('5 000');
    expect(plain(measureText('12.50'))).toBe('12,5');
    expect(measureText(null)).toBe('');
    expect(measureText('abc')).toBe('');
  });

  it('writes a follow-up rate with its sign, and nothing for a blank one', () => {
    expect(plain(rateText('12.5'))).toBe('12,5 %');
    expect(plain(rateText('100'))).toBe('100 %');
    expect(rateText('')).toBe('');
  });
});

describe('isResultValidable', () => {
  const record = { date: '2026-03-15' };

  it('needs at least one follow-up record and a pending status', () => {
    expect(isResultValidable({ status: 0, suivi_results: [record] })).toBe(true);
    expect(isResultValidable({ status: 0, suivi_results: [] })).toBe(false);
    expect(isResultValidable({ status: 1, suivi_results: [record] })).toBe(false);
  });
});

describe('resultValidationOf (spec §4 "Result status")', () => {
  const record = { date: '2026-03-15' };

  it('accepts a pending, active result with a follow-up record', () => {
    expect(resultValidationOf({ status: 0, is_active: true, suivi_results: [record] }, { is_active: true })).toEqual({ ok: true });
    expect(resultValidationOf({ status: 0, suivi_results: [record] })).toEqual({ ok: true });
  });

  it('refuses a result without follow-up, with the reason and its French message', () => {
    expect(resultValidationOf({ status: 0, suivi_results: [] })).toEqual({
      ok: false,
      reason: 'needsFollowUp',
      message: "Un résultat ne peut être validé qu'après au moins une donnée de suivi.",
    });
  });

  it('refuses a result already validated', () => {
    expect(resultValidationOf({ status: 1, suivi_results: [record] })).toEqual({
      ok: false,
      reason: 'alreadyValidated',
      message: 'Ce résultat est déjà validé.',
    });
  });

  it('refuses a deactivated result, or one whose objective is deactivated, before anything else', () => {
    const inactive = {
      ok: false,
      reason: 'inactive',
      message: "Un résultat attendu désactivé, ou dont l'objectif est désactivé, ne peut pas être validé.",
    };
    expect(resultValidationOf({ status: 1, is_active: false, suivi_results: [] })).toEqual(inactive);
    expect(resultValidationOf({ status: 0, is_active: true, suivi_results: [record] }, { is_active: false })).toEqual(inactive);
  });

  it('has a message for every reason', () => {
    expect(Object.keys(RESULT_VALIDATION_MESSAGES).sort()).toEqual(['alreadyValidated', 'inactive', 'needsFollowUp']);
  });

  it('agrees with isResultValidable', () => {
    for (const status of [0, 1])
      for (const suivi_results of [[], [record]])
        for (const is_active of [true, false, undefined])
          expect(isResultValidable({ status, is_active, suivi_results })).toBe(resultValidationOf({ status, is_active, suivi_results }).ok);
  });
});
