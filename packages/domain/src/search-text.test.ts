import { describe, expect, it } from 'vitest';
import { matchesSearchText, needsRemoteSearch, normalizeSearchText } from './search-text.ts';

describe('search text (spec §5 "Search")', () => {
  it('ignores case, accents and surrounding blanks', () => {
    expect(normalizeSearchText('  Énergie ÇA  ')).toBe('energie ca');
    expect(matchesSearchText(['Ministère de l’Économie', null], 'economie')).toBe(true);
    expect(matchesSearchText(['Santé'], 'budget')).toBe(false);
  });

  it('gives plain ASCII the same form as the full normalisation (issue 40)', () => {
    const full = (text: string) =>
      text
        .toLowerCase()
        .normalize('NFD')
        .replace(/\p{Diacritic}/gu, '')
        .trim();
    for (let code = 0; code < 0x250; code += 1) {
      const text = ` A${String.fromCharCode(code)}b `;
      expect(normalizeSearchText(text), `U+${code.toString(16)}`).toBe(full(text));
    }
    expect(normalizeSearchText('a^`b')).toBe('ab');
  });

  it('matches everything for a blank text', () => {
    expect(matchesSearchText(['Santé'], '   ')).toBe(true);
  });

  it('asks the server only above two trimmed characters and without a local match', () => {
    expect(needsRemoteSearch('ab', 0)).toBe(false);
    expect(needsRemoteSearch(' ab ', 0)).toBe(false);
    expect(needsRemoteSearch('abc', 0)).toBe(true);
    expect(needsRemoteSearch('abc', 1)).toBe(false);
  });
});
