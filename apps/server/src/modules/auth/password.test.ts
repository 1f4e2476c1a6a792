import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { createSlots } from '../../http/slots.ts';
import { hashPassword, verifyPassword } from './password.ts';

describe('password hashes', () => {
  it('are argon2id with 7 MiB and 5 passes, and verify only the right password', async () => {
    const stored = await hashPassword('Tournesol-Bleu-42');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
    expect(await verifyPassword(stored, 'Tournesol-Bleu-42')).toBe(true);
    expect(await verifyPassword(stored, 'tournesol-bleu-42')).toBe(false);
  });

  it('made with the earlier settings (19 MiB x 2) still verify', async () => {
    const earlier = await hash('Tournesol-Bleu-42');
    expect(earlier).toMatch(/m=19456,t=2,p=1/);
    expect(await verifyPassword(earlier, 'Tournesol-Bleu-42')).toBe(true);
  });

  it('a damaged hash is a wrong password, not an error', async () => {
    expect(await verifyPassword('$argon2id$v=19$abîmé', 'x')).toBe(false);
  });
});

describe('createSlots', () => {
  it('runs at most `max` works at once, in order, and passes on a failure', async () => {
    const withSlot = createSlots(2);
    let running = 0;
    let highest = 0;
    const order: number[] = [];
    const work = (n: number) =>
      withSlot(async () => {
        running += 1;
        highest = Math.max(highest, running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running -= 1;
        order.push(n);
        if (n === 1) throw new Error('échec');
        return n;
      });
    const results = await Promise.allSettled([1, 2, 3, 4, 5, 6].map(work));
    expect(highest).toBe(2);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(order).toEqual([1, 2, 3, 4, 5, 6]);
    // Every slot came back: two more run at once straight away.
    await Promise.all([work(7), work(8)]);
    expect(highest).toBe(2);
  });
});
