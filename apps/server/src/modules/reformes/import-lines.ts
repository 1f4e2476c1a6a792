import { IMPORT_LIMITS, IMPORT_MAX_ROWS, IMPORT_MESSAGES } from '@reformes/domain';

/*
 * The lines the reading process hands back, as one buffer of at most `IMPORT_LIMITS.resultBytes` (issue 40): a
 * structured clone, as a worker thread's answer was, copied each reference to one shared string again, into the
 * server's heap. The buffer is
 * `[numbers' bytes u32][numbers][text]`: the numbers are, per line, its index, its number of cells and each cell's
 * length (UTF-16 units), all u32; the text is every cell's, in UTF-8, one after the other. The server decodes the
 * text at once and cuts it, which keeps its event loop free (a decode per cell took 200 ms for 20 000 lines).
 */

/** The lines passed the budget: a refusal of the file (`IMPORT_MESSAGES.tooMuchText`). */
export class LinesTooLargeError extends Error {}

const encoder = new TextEncoder();

/** A buffer that grows by doubling. */
class Bytes {
  bytes = new Uint8Array(16 * 1024);
  size = 0;

  reserve(needed: number): void {
    if (this.size + needed <= this.bytes.length) return;
    let capacity = this.bytes.length;
    while (capacity < this.size + needed) capacity *= 2;
    const bytes = new Uint8Array(capacity);
    bytes.set(this.bytes.subarray(0, this.size));
    this.bytes = bytes;
  }
}

/** Writes lines as they are read, refusing the first one past `budget` bytes before anything of it is copied. */
export class LinesWriter {
  private readonly numbers = new Bytes();
  private readonly text = new Bytes();

  constructor(private readonly budget: number = IMPORT_LIMITS.resultBytes) {}

  /** `index` counts from 0 (the header); `cells` as read. */
  add(index: number, cells: string[]): void {
    const numbers = 4 * (2 + cells.length);
    let text = 0;
    for (const cell of cells) text += Buffer.byteLength(cell);
    if (4 + this.numbers.size + this.text.size + numbers + text > this.budget) throw new LinesTooLargeError(IMPORT_MESSAGES.tooMuchText);
    this.numbers.reserve(numbers);
    this.text.reserve(text);
    const view = new DataView(this.numbers.bytes.buffer);
    let offset = this.numbers.size;
    view.setUint32(offset, index);
    view.setUint32(offset + 4, cells.length);
    offset += 8;
    for (const cell of cells) {
      view.setUint32(offset, cell.length);
      offset += 4;
      this.text.size += encoder.encodeInto(cell, this.text.bytes.subarray(this.text.size)).written;
    }
    this.numbers.size = offset;
  }

  /** The lines written, in one buffer of their exact size. */
  finish(): Uint8Array {
    const bytes = new Uint8Array(4 + this.numbers.size + this.text.size);
    new DataView(bytes.buffer).setUint32(0, this.numbers.size);
    bytes.set(this.numbers.bytes.subarray(0, this.numbers.size), 4);
    bytes.set(this.text.bytes.subarray(0, this.text.size), 4 + this.numbers.size);
    return bytes;
  }
}

/** Lines cut between two turns of the event loop (20 000 lines of 19 cells take about 70 ms in all). */
const LINES_PER_TURN = 1000;

/**
 * The lines of a buffer `LinesWriter` wrote, header first, a line the sheet skipped as `[]`. The buffer comes from
 * another thread: it is checked as input (its size first, then every number against the text), and `undefined`
 * means it is not one.
 */
export async function readLines(buffer: Uint8Array, budget: number = IMPORT_LIMITS.resultBytes): Promise<string[][] | undefined> {
  if (buffer.byteLength > budget || buffer.byteLength < 4) return undefined;
  const view = new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  const end = 4 + view.getUint32(0);
  if (end > buffer.byteLength || end % 4 !== 0) return undefined;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(end));
  } catch {
    return undefined;
  }
  const lines: string[][] = [];
  let offset = 4;
  let start = 0;
  let read = 0;
  while (offset < end) {
    if (offset + 8 > end) return undefined;
    const index = view.getUint32(offset);
    const count = view.getUint32(offset + 4);
    offset += 8;
    if (index > IMPORT_MAX_ROWS + 1 || count > IMPORT_LIMITS.columns || offset + 4 * count > end) return undefined;
    const cells: string[] = [];
    for (let column = 0; column < count; column += 1) {
      const length = view.getUint32(offset);
      offset += 4;
      if (start + length > text.length) return undefined;
      cells.push(text.slice(start, start + length));
      start += length;
    }
    lines[index] = cells;
    read += 1;
    if (read % LINES_PER_TURN === 0) await new Promise(setImmediate);
  }
  if (start !== text.length) return undefined;
  return Array.from(lines, (line) => line ?? []);
}
