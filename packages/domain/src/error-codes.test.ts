import { describe, expect, it } from 'vitest';
import { codeOfStatus, ERROR_CODE_VALUES, ERROR_CODES, isErrorCode } from './error-codes.ts';

describe('error codes', () => {
  it('are unique SCREAMING_SNAKE strings named by their camelCase key', () => {
    expect(new Set(ERROR_CODE_VALUES).size).toBe(ERROR_CODE_VALUES.length);
    for (const [key, code] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(code.toLowerCase().replaceAll('_', '')).toBe(key.toLowerCase());
    }
  });

  it('give each status its generic code, any other 4xx a bad request and 5xx an internal error', () => {
    expect(codeOfStatus(401)).toBe('UNAUTHENTICATED');
    expect(codeOfStatus(404)).toBe('NOT_FOUND');
    expect(codeOfStatus(413)).toBe('PAYLOAD_TOO_LARGE');
    expect(codeOfStatus(422)).toBe('INVALID_INPUT');
    expect(codeOfStatus(503)).toBe('SERVICE_UNAVAILABLE');
    expect(codeOfStatus(410)).toBe('BAD_REQUEST');
    expect(codeOfStatus(502)).toBe('INTERNAL_ERROR');
    expect(codeOfStatus(0)).toBe('UNKNOWN_ERROR');
  });

  it('recognise a received code, and only a code', () => {
    expect(isErrorCode('TWO_FACTOR_CHALLENGE_EXPIRED')).toBe(true);
    expect(isErrorCode('twoFactorChallengeExpired')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });
});
