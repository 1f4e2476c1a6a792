import { describe, expect, it } from 'vitest';
import { ETAT_OPTIONS, etatLabel, isStartAfterEnd, objectivePercentage, periodText, TYPE_OPTIONS, typeLabel } from './reforme-rules.ts';

describe('periodText', () => {
  it('writes the period as "Du dd/mm/yyyy au dd/mm/yyyy"', () => {
    expect(periodText('2026-01-15', '2026-12-31')).toBe('Du 15/01/2026 au 31/12/2026');
  });

  it('keeps the leading zeros of days and months', () => {
    expect(periodText('2024-03-05', '2025-09-01')).toBe('Du 05/03/2024 au 01/09/2025');
  });

  it('ignores the time part of an ISO timestamp', () => {
    expect(periodText('2026-02-01T00:00:00.000Z', '2026-02-28T23:59:59Z')).toBe('Du 01/02/2026 au 28/02/2026');
  });
});

describe('isStartAfterEnd', () => {
  it('is true when the start date is after the end date', () => {
    expect(isStartAfterEnd('2026-06-02', '2026-06-01')).toBe(true);
    expect(isStartAfterEnd('2027-01-01', '2026-12-31')).toBe(true);
  });

  it('is false when the start date is before or on the end date', () => {
    expect(isStartAfterEnd('2026-06-01', '2026-06-02')).toBe(false);
    expect(isStartAfterEnd('2026-06-01', '2026-06-01')).toBe(false);
  });

  it('compares the dates only, not the times', () => {
    expect(isStartAfterEnd('2026-06-01T23:00:00Z', '2026-06-01T01:00:00Z')).toBe(false);
  });
});

describe('objectivePercentage', () => {
  it('is undefined when the objective has no results', () => {
    expect(objectivePercentage([])).toBeUndefined();
  });

  it('is the share of validated results, unrounded', () => {
    expect(objectivePercentage([{ status: 1 }, { status: 0 }, { status: 0 }])).toBe((1 / 3) * 100);
    expect(objectivePercentage([{ status: 1 }, { status: 1 }, { status: 0 }])).toBe((2 / 3) * 100);
  });

  it('is 0 when none is validated and 100 when all are', () => {
    expect(objectivePercentage([{ status: 0 }, { status: 0 }])).toBe(0);
    expect(objectivePercentage([{ status: 1 }, { status: 1 }])).toBe(100);
  });

  it('is 50 for one validated result out of two', () => {
    expect(objectivePercentage([{ status: 0 }, { status: 1 }])).toBe(50);
  });

  it('leaves deactivated results out, validated or not', () => {
    expect(
      objectivePercentage([
        { status: 1, is_active: true },
        { status: 0, is_active: true },
        { status: 1, is_active: false },
        { status: 0, is_active: false },
      ]),
    ).toBe(50);
    expect(objectivePercentage([{ status: 1, is_active: false }])).toBeUndefined();
  });
});

describe('reform labels', () => {
  it('names a type and an état in French, and leaves a blank or unknown value blank', () => {
    expect(typeLabel('SECTORIELLE')).toBe('Sectorielle');
    expect(typeLabel('TRANSVERSALE')).toBe('Transversale');
    expect(etatLabel('planifiee')).toBe('Planifiée');
    expect([typeLabel(null), etatLabel(undefined), etatLabel('inconnu')]).toEqual(['', '', '']);
  });

  it('offers every type and every état as a select choice', () => {
    expect(TYPE_OPTIONS).toEqual([
      { value: 'SECTORIELLE', label: 'Sectorielle' },
      { value: 'TRANSVERSALE', label: 'Transversale' },
    ]);
    expect(ETAT_OPTIONS.map((option) => option.label)).toEqual(['En cours', 'Planifiée', 'Terminée', 'Suspendue']);
  });
});
