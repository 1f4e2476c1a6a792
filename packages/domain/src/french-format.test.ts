import { describe, expect, it } from 'vitest';
import { dateTime, dayMonthYear, formatEuro, longDate } from './french-format.ts';

describe('French formats', () => {
  it('writes a calendar date as that day, long or short, whatever the time zone', () => {
    expect(longDate('2026-01-15')).toBe('15 janvier 2026');
    expect(longDate('2026-08-01')).toBe('1 août 2026');
    expect(dayMonthYear('2026-01-05')).toBe('05/01/2026');
  });

  it('writes a timestamp in the reader’s time, with "à" before the hour', () => {
    const local = new Date(2026, 0, 15, 9, 30);
    expect(dateTime(local.toISOString())).toBe('15/01/2026 à 09:30');
    expect(longDate(local.toISOString())).toBe('15 janvier 2026');
  });

  it('writes what Intl writes in French, every month and hour (issue 34: written out, for speed)', () => {
    const long = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'long', year: 'numeric' });
    const short = new Intl.DateTimeFormat('fr-FR', { day: '2-digit', month: '2-digit', year: 'numeric' });
    const time = new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    for (let month = 0; month < 12; month++) {
      const date = new Date(2026, month, month + 1, month * 2, month * 5);
      expect(longDate(date.toISOString())).toBe(long.format(date));
      expect(dateTime(date.toISOString())).toBe(`${short.format(date)} à ${time.format(date)}`);
    }
  });

  it('leaves blank and unreadable values blank', () => {
    for (const value of [null, undefined, '', 'pas une date']) {
      expect(longDate(value)).toBe('');
      expect(dayMonthYear(value)).toBe('');
      expect(dateTime(value)).toBe('');
    }
  });

  it('writes amounts in euros, French style', () => {
    expect(formatEuro('1234.5')).toBe('1\u202f234,50\u00a0€');
    expect(formatEuro(null)).toBe('');
  });
});
