import { describe, expect, it } from 'vitest';
import {
  daysBetween,
  type PortfolioStatus,
  type ProgressSummary,
  portfolioStatusLabel,
  portfolioStatusOf,
  resultProgress,
} from './portfolio-status.ts';

const reform = (overrides: Partial<ProgressSummary> = {}): ProgressSummary => ({
  date_debut: '2026-01-01',
  date_fin: '2026-12-31',
  results_total: 2,
  results_validated: 0,
  progress_sum: 0,
  last_suivi_date: null,
  ...overrides,
});

describe('daysBetween', () => {
  it.each([
    ['2026-01-31', '2026-02-01', 1],
    ['2026-02-28', '2026-03-01', 1],
    ['2028-02-28', '2028-03-01', 2],
    ['2026-03-28', '2026-03-30', 2], // across the spring clock change
    ['2026-10-24', '2026-10-26', 2], // across the autumn one
    ['2026-12-31', '2027-01-01', 1],
    ['2026-05-10', '2026-05-01', -9],
  ])('%s -> %s is %i days', (from, to, days) => {
    expect(daysBetween(from, to)).toBe(days);
  });
});

describe('resultProgress', () => {
  it.each([
    [true, null, 1],
    [true, 10, 1],
    [false, null, 0],
    [false, 40, 0.4],
    [false, 250, 1],
    [false, Number.NaN, 0],
  ])('validated %s, rate %s -> %f', (validated, rate, expected) => {
    expect(resultProgress(validated, rate)).toBe(expected);
  });
});

describe('portfolioStatusOf: a table of cases', () => {
  const cases: Array<[string, Partial<ProgressSummary>, string, PortfolioStatus, string]> = [
    ['every result validated, even late', { results_validated: 2, progress_sum: 2 }, '2027-06-01', 'terminee', 'Terminée'],
    ['every result validated before the start', { results_validated: 2, progress_sum: 2 }, '2025-12-31', 'terminee', 'Terminée'],
    ['no result is never "terminée"', { results_total: 0 }, '2027-06-01', 'en_retard', 'En retard'],
    ['the day before its start', {}, '2025-12-31', 'non_demarree', 'Non démarrée'],
    ['its first day, nothing done yet', {}, '2026-01-01', 'dans_les_temps', 'Dans les temps'],
    [
      'its last day, half done, follow-up this month',
      { progress_sum: 1, last_suivi_date: '2026-12-15' },
      '2026-12-31',
      'a_risque',
      'À risque',
    ],
    ['the day after its end', { progress_sum: 1.9, last_suivi_date: '2026-12-30' }, '2027-01-01', 'en_retard', 'En retard'],
    [
      'one result of two validated at month end',
      { results_validated: 1, progress_sum: 1, last_suivi_date: '2026-05-31' },
      '2026-06-30',
      'dans_les_temps',
      'Dans les temps',
    ],
    ['no follow-up 90 days after the start', {}, '2026-04-01', 'dans_les_temps', 'Dans les temps'],
    ['no follow-up 91 days after the start', {}, '2026-04-02', 'sans_suivi', 'Sans suivi depuis 91 jours'],
    [
      'last follow-up on Jan 31, today May 2',
      { progress_sum: 0.5, last_suivi_date: '2026-01-31' },
      '2026-05-02',
      'sans_suivi',
      'Sans suivi depuis 91 jours',
    ],
    [
      'last follow-up on Jan 31, today May 1',
      { progress_sum: 0.5, last_suivi_date: '2026-01-31' },
      '2026-05-01',
      'dans_les_temps',
      'Dans les temps',
    ],
    ['without results, a third of the way', { results_total: 0, last_suivi_date: null }, '2026-03-31', 'dans_les_temps', 'Dans les temps'],
    [
      'without results, past the risk margin',
      { results_total: 0, date_debut: '2026-03-01', date_fin: '2026-04-30' },
      '2026-04-20',
      'a_risque',
      'À risque',
    ],
    ['behind by more than a quarter', { progress_sum: 0.2, last_suivi_date: '2026-06-01' }, '2026-06-30', 'a_risque', 'À risque'],
    [
      'behind by less than a quarter',
      { progress_sum: 0.6, last_suivi_date: '2026-06-01' },
      '2026-06-30',
      'dans_les_temps',
      'Dans les temps',
    ],
    [
      'a one-day reform on its day, nothing done',
      { date_debut: '2026-02-28', date_fin: '2026-02-28' },
      '2026-02-28',
      'a_risque',
      'À risque',
    ],
    [
      'leap day end, checked the next day',
      { date_fin: '2028-02-29', results_validated: 1, progress_sum: 1.5 },
      '2028-03-01',
      'en_retard',
      'En retard',
    ],
  ];

  it.each(cases)('%s', (_name, overrides, today, status, label) => {
    const verdict = portfolioStatusOf(reform(overrides), today);
    expect(verdict.status).toBe(status);
    expect(portfolioStatusLabel(verdict)).toBe(label);
  });

  it('reports the mean progress and the days without follow-up', () => {
    expect(portfolioStatusOf(reform({ progress_sum: 1.5, last_suivi_date: '2026-03-01' }), '2026-03-11')).toEqual({
      status: 'dans_les_temps',
      progress: 0.75,
      days_without_suivi: 10,
    });
    expect(portfolioStatusOf(reform(), '2025-06-01').days_without_suivi).toBeNull();
  });
});
