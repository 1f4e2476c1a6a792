import { IMPORT_LIMITS, IMPORT_MESSAGES } from '@reformes/domain';
import { describe, expect, it } from 'vitest';
import { LinesTooLargeError, LinesWriter, readLines } from './import-lines.ts';

describe('the lines a reading worker hands back (issue 40)', async () => {
  it('reads back what was written, a skipped line as empty, in one buffer of their exact size', async () => {
    const writer = new LinesWriter();
    writer.add(0, ['Réforme', 'Date début']);
    writer.add(2, ['Guichet « unique » 😀', '', '01/03/2026']);
    const buffer = writer.finish();
    const text = Buffer.byteLength('RéformeDate débutGuichet « unique » 😀01/03/2026');
    expect(buffer.byteLength).toBe(4 + (8 + 2 * 4) + (8 + 3 * 4) + text);
    expect(await readLines(buffer)).toEqual([['Réforme', 'Date début'], [], ['Guichet « unique » 😀', '', '01/03/2026']]);
  });

  it('refuses the line that passes the budget, counting each cell that shows the same text', async () => {
    const writer = new LinesWriter(100);
    const shared = 'x'.repeat(30);
    writer.add(0, [shared, shared]);
    expect(() => writer.add(1, [shared])).toThrow(new LinesTooLargeError(IMPORT_MESSAGES.tooMuchText));
    expect(await readLines(writer.finish())).toEqual([[shared, shared]]);
  });

  it('takes nothing from a buffer that is not one of its own', async () => {
    const writer = new LinesWriter();
    writer.add(0, ['abc']);
    const good = writer.finish();
    const damaged = (change: (bytes: Uint8Array, view: DataView) => void) => {
      const bytes = good.slice();
      change(bytes, new DataView(bytes.buffer));
      return bytes;
    };
    expect(await readLines(new Uint8Array(IMPORT_LIMITS.resultBytes + 1))).toBeUndefined();
    expect(await readLines(good)).toEqual([['abc']]);
    expect(await readLines(Buffer.concat([Buffer.from('L'), good]).subarray(1))).toEqual([['abc']]);
    // [numbers' bytes: 12][index: 0][cells: 1][length: 3]abc
    expect(await readLines(damaged((_, view) => view.setUint32(0, 1000)))).toBeUndefined();
    expect(await readLines(damaged((_, view) => view.setUint32(4, 10_000_000)))).toBeUndefined();
    expect(await readLines(damaged((_, view) => view.setUint32(8, IMPORT_LIMITS.columns + 1)))).toBeUndefined();
    expect(await readLines(damaged((_, view) => view.setUint32(12, 1000)))).toBeUndefined();
    expect(await readLines(damaged((_, view) => view.setUint32(12, 2)))).toBeUndefined();
    expect(await readLines(damaged((bytes) => bytes.set([0xff], 16)))).toBeUndefined();
    expect(await readLines(good.slice(0, 2))).toBeUndefined();
  });
});
