import { describe, expect, it } from 'vitest';
import { frenchInteger, frenchNumberFormat, tooLargeNumberMessage } from './numbers.ts';

describe('frenchInteger', () => {
  const wholeNumbers = [0, 7, 42, 999, 1000, 1234, 12_345, 100_000, 999_999, 1_000_000, 123_456_789, 1e13, 1e14, -1, -1234, -1e13];

  it('writes whole numbers exactly as the fr-FR number format does', () => {
    for (const value of wholeNumbers) expect(frenchInteger(value), String(value)).toBe(frenchNumberFormat().format(value));
  });

  it('groups thousands with a narrow no-break space', () => {
    expect(frenchInteger(5000)).toBe('5\u202f000');
    expect(frenchInteger(-12_345_678)).toBe('-12\u202f345\u202f678');
  });

  it('leaves anything but a safe integer to ICU', () => {
    expect(frenchInteger(1234.5)).toBe('1\u202f234,5');
    expect(frenchInteger(2 ** 60)).toBe(frenchNumberFormat().format(2 ** 60));
  });

  it('names the limit of a number in French', () => {
    expect(tooLargeNumberMessage(1e13)).toBe('Ce nombre doit être inférieur à 10\u202f000\u202f000\u202f000\u202f000');
  });
});
