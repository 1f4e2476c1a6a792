import { describe, expect, it } from 'vitest';
import { ARGON2_OPTIONS, verifyPassword } from '../../modules/auth/password.ts';
import { DEMO_PASSWORD, DEMO_PASSWORD_HASH } from './demo.ts';

describe("the demo accounts' password hash", () => {
  it('verifies DEMO_PASSWORD, made with the settings every sign-in hashes with', async () => {
    expect(await verifyPassword(DEMO_PASSWORD_HASH, DEMO_PASSWORD)).toBe(true);
    expect(await verifyPassword(DEMO_PASSWORD_HASH, `${DEMO_PASSWORD}x`)).toBe(false);
    const { memoryCost, timeCost, parallelism } = ARGON2_OPTIONS;
    expect(DEMO_PASSWORD_HASH).toMatch(new RegExp(`^\\$argon2id\\$v=19\\$m=${memoryCost},t=${timeCost},p=${parallelism}\\$`));
  });
});
