import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from './zod-locale.ts';

const SOURCE = import.meta.dirname;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

describe('zod in French', () => {
  it("gives zod's own messages in French", () => {
    const result = z.object({ count: z.number() }).safeParse({ count: 'douze' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toMatch(/^Entrée invalide/);
  });

  it('reaches every schema: domain modules take z from zod-locale.ts, which a bundle cannot leave out (issue 20)', () => {
    const direct = sources(SOURCE)
      .filter((file) => path.basename(file) !== 'zod-locale.ts')
      .filter((file) => /^import \{[^}]*\bz\b[^}]*\} from 'zod';/m.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(SOURCE, file));
    expect(direct).toEqual([]);
  });
});
