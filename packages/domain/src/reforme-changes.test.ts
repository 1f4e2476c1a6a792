import { describe, expect, it } from 'vitest';
import { REFORME_CHANGE_MESSAGES, type ReformeChange, reformeChangeOf } from './reforme-changes.ts';
import { REFORME_MESSAGES } from './reforme-rules.ts';

// Where a reform waits: stages 1, 2, 3 of architecture §4, and 3 once published.
const PLACES = {
  draft: { stage: 1, isPublished: false },
  validation: { stage: 2, isPublished: false },
  publication: { stage: 3, isPublished: false },
  published: { stage: 3, isPublished: true },
} as const;
type Place = keyof typeof PLACES;

// Written out by hand, one line per role: E = edit, D = delete, S = status (de)activation, '-' = refused.
const EXPECTED: Record<string, Record<Place, string>> = {
  admin: { draft: '---', validation: '---', publication: '---', published: '---' },
  'saisie central': { draft: '---', validation: '---', publication: 'EDS', published: 'E-S' },
  saisie: { draft: 'EDS', validation: '---', publication: '---', published: '---' },
  validation: { draft: '---', validation: 'EDS', publication: '---', published: '---' },
  publication: { draft: '---', validation: '---', publication: 'EDS', published: 'E-S' },
  observateur: { draft: '---', validation: '---', publication: '---', published: '---' },
};
const LETTERS: Record<ReformeChange, string> = { edit: 'E', delete: 'D', status: 'S' };

describe('reformeChangeOf: who changes a reform, by role x stage x action', () => {
  for (const [role, places] of Object.entries(EXPECTED)) {
    for (const [place, letters] of Object.entries(places) as [Place, string][]) {
      for (const [change, letter] of Object.entries(LETTERS) as [ReformeChange, string][]) {
        const allowed = letters.includes(letter);
        it(`${role} ${allowed ? 'may' : 'may not'} ${change} a reform in ${place}`, () => {
          expect(reformeChangeOf(PLACES[place], change, role).allowed).toBe(allowed);
        });
      }
    }
  }

  it('refuses a role without a stage with 403, a wrong stage with 409', () => {
    expect(reformeChangeOf(PLACES.draft, 'edit', 'admin')).toEqual({
      allowed: false,
      status: 403,
      message: REFORME_CHANGE_MESSAGES.wrongRole,
    });
    expect(reformeChangeOf(PLACES.draft, 'edit', undefined)).toMatchObject({ status: 403 });
    expect(reformeChangeOf(PLACES.publication, 'delete', 'saisie')).toEqual({
      allowed: false,
      status: 409,
      message: REFORME_CHANGE_MESSAGES.wrongStage,
    });
  });

  it('tells saisie and validation that a published reform no longer changes', () => {
    expect(reformeChangeOf(PLACES.published, 'edit', 'saisie')).toEqual({
      allowed: false,
      status: 409,
      message: REFORME_MESSAGES.published,
    });
  });

  it('says why a published reform is not deleted', () => {
    expect(reformeChangeOf(PLACES.published, 'delete', 'publication')).toEqual({
      allowed: false,
      status: 409,
      message: REFORME_CHANGE_MESSAGES.publishedDelete,
    });
  });

  it('keeps a reform with follow-up records from deletion, not from edition', () => {
    const followed = { ...PLACES.draft, hasFollowUp: true };
    expect(reformeChangeOf(followed, 'delete', 'saisie')).toEqual({
      allowed: false,
      status: 409,
      message: REFORME_CHANGE_MESSAGES.followUpDelete,
    });
    expect(reformeChangeOf(followed, 'edit', 'saisie').allowed).toBe(true);
    expect(reformeChangeOf(followed, 'status', 'saisie').allowed).toBe(true);
  });
});
