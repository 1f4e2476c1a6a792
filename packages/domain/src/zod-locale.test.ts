import { describe, expect, it } from 'vitest';
import { z } from './zod-locale.ts';

describe('zod in French', () => {
  it("gives zod's own messages in French", () => {
    const result = z.object({ count: z.number() }).safeParse({ count: 'douze' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].message).toMatch(/^Entrée invalide/);
  });
});
