import { describe, expect, it } from 'vitest';

/**
 * Issue 41: no screen decides by a French text. An error's `message` is what a person reads and may be reworded;
 * code that tells two refusals apart compares `code` (ERROR_CODES). This scan of the web app's sources fails on a
 * comparison of a message with a text.
 */
const TEXT_DECISIONS: readonly RegExp[] = [
  // `error.message === …`, `message !== …` (a `typeof x.message === 'string'` check is no decision on the text).
  /(?<!typeof\s+[\w?.]*)\bmessage\s*[!=]==/,
  // `… === error.message`, `… !== message`.
  /[!=]==\s*[\w?.]*\bmessage\b(?!\s*\()/,
  // `… === MESSAGES.x`, `… === TWO_FACTOR_MESSAGES.x`, and the other way round.
  /[!=]==\s*[\w.]*MESSAGES\.\w/,
  /\b[A-Z_]*MESSAGES\.\w+\s*[!=]==/,
  // `error.message.includes(…)`, `message?.startsWith(…)`, `.match(…)`.
  /\bmessage\??\.(?:includes|startsWith|endsWith|match|search|indexOf)\(/,
];

const decisionsIn = (source: string) =>
  source.split('\n').flatMap((line, index) => (TEXT_DECISIONS.some((rule) => rule.test(line)) ? [`${index + 1}: ${line.trim()}`] : []));

/** The web app's sources, tests and test helpers left out, by path. */
const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../test/**'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

describe('no decision on a French text in the web app', () => {
  it('catches a comparison of a message with a text, and lets a type check or a code comparison pass', () => {
    for (const decision of [
      "if (error.message === TWO_FACTOR_MESSAGES.challengeExpired) showStep('password');",
      'const expired = error instanceof ApiError && error.message !== MESSAGES.unauthenticated;',
      'if (MESSAGES.notFound === error.message) return null;',
      "if (error.message.includes('expiré')) retry();",
      'return text === TWO_FACTOR_MESSAGES.invalidCode;',
    ])
      expect(decisionsIn(decision), decision).toHaveLength(1);
    for (const fine of [
      "const message = typeof body?.message === 'string' && body.message ? body.message : fallback;",
      "if (error.code === ERROR_CODES.twoFactorChallengeExpired) showStep('password');",
      'notifications.show({ title, message: MESSAGES.saved });',
    ])
      expect(decisionsIn(fine), fine).toEqual([]);
  });

  it('finds none in the sources (outside the tests)', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(50);
    const found = Object.entries(sources).flatMap(([path, source]) => decisionsIn(source).map((line) => `${path}:${line}`));
    expect(found).toEqual([]);
  });
});
