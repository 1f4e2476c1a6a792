import { describe, expect, it } from 'vitest';

// The domain's sources as text (not run): how they import zod decides what the web bundles keep.
const sources = import.meta.glob(['../../../packages/domain/src/**/*.ts', '!../../../packages/domain/src/**/*.test.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

describe('the domain in the web bundles (issue 20)', () => {
  it("takes z from zod-locale.ts, so that zod's French messages come with any schema a bundle keeps", () => {
    expect(Object.keys(sources).length).toBeGreaterThan(20);
    const direct = Object.entries(sources)
      .filter(([file, text]) => !file.endsWith('/zod-locale.ts') && /^import \{[^}]*\bz\b[^}]*\} from 'zod';/m.test(text))
      .map(([file]) => file);
    expect(direct).toEqual([]);
  });
});
