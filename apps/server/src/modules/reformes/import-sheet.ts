import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import { IMPORT_LIMITS, IMPORT_MAX_ROWS, IMPORT_MESSAGES } from '@reformes/domain';
import { parse } from 'csv-parse/sync';
import { LinesTooLargeError, LinesWriter } from './import-lines.ts';

/** A refusal of the file, plain data so that it crosses from the reading worker to the request. */
export class SheetError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const refuse = (message: string, status = 422) => new SheetError(status, message);

/**
 * Counts the lines, cells and bytes of a sheet as they are read, and refuses the file at the first limit passed:
 * a file is never read further than its limits. Each line is written at once into the one buffer handed back
 * (`LinesWriter`, within `IMPORT_LIMITS.resultBytes`), nothing else is kept.
 */
function limiter() {
  let cells = 0;
  const writer = new LinesWriter();
  return {
    /** `row` counts the header as 1; `line` is the file's line, for the message (a quoted cell may span lines). */
    add(row: number, values: string[], line = row) {
      if (row - 1 > IMPORT_MAX_ROWS) throw refuse(IMPORT_MESSAGES.tooManyRows);
      if (values.length > IMPORT_LIMITS.columns) throw refuse(IMPORT_MESSAGES.tooManyColumns);
      for (const value of values) {
        if (value.length > IMPORT_LIMITS.cellLength) throw refuse(IMPORT_MESSAGES.cellTooLong(line));
        if (value !== '') cells += 1;
      }
      if (cells > IMPORT_LIMITS.cells) throw refuse(IMPORT_MESSAGES.tooManyCells);
      try {
        writer.add(row - 1, values);
      } catch (error) {
        if (error instanceof LinesTooLargeError) throw refuse(error.message, 413);
        throw error;
      }
    },
    finish: () => writer.finish(),
  };
}

/** The lines of a CSV in UTF-8 (`;` or `,`, with or without BOM), header first, as `LinesWriter` writes them. */
export function readCsv(content: Uint8Array): Uint8Array {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    throw refuse(IMPORT_MESSAGES.encoding);
  }
  text = text.replace(/^\uFEFF/, '');
  const header = text.slice(0, text.search(/\r?\n|$/));
  // French spreadsheets write ';' (the decimal comma takes ','): the header tells which one this file uses.
  const delimiter = (header.match(/;/g)?.length ?? 0) >= (header.match(/,/g)?.length ?? 0) ? ';' : ',';
  const check = limiter();
  try {
    parse(text, {
      delimiter,
      relax_column_count: true,
      skip_empty_lines: false,
      bom: true,
      // One line past the limit is enough to refuse the file; the rest is not read.
      to: IMPORT_MAX_ROWS + 2,
      // With at most `columns` cells, a longer line has a cell over the limit: refused before it is all buffered.
      max_record_size: IMPORT_LIMITS.cellLength * IMPORT_LIMITS.columns,
      // Written as read, not kept: the parser's result stays empty.
      on_record: (record: string[], { records, lines }) => {
        check.add(records, record, lines);
        return null;
      },
    });
    return check.finish();
  } catch (error) {
    if (error instanceof SheetError) throw error;
    const { code, lines } = error as { code?: string; lines?: number };
    if (code === 'CSV_MAX_RECORD_SIZE') throw refuse(IMPORT_MESSAGES.cellTooLong(lines ?? 1));
    throw refuse(`${IMPORT_MESSAGES.unreadable} (${(error as Error).message})`);
  }
}

const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;
const END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

/**
 * Walks the zip's directory before anything parses the workbook: the number of entries, a VBA project, and the
 * bytes each entry really inflates to (counted while inflating, never taken from the headers, which can lie).
 */
export async function checkZip(content: Buffer): Promise<void> {
  const end = content.lastIndexOf(END_OF_DIRECTORY);
  if (end < 0 || end + 22 > content.length) throw refuse(IMPORT_MESSAGES.unreadable);
  const entries = content.readUInt16LE(end + 10);
  if (entries > IMPORT_LIMITS.zipEntries) throw refuse(IMPORT_MESSAGES.tooManyEntries);
  let offset = content.readUInt32LE(end + 16);
  let inflated = 0;
  for (let index = 0; index < entries; index += 1) {
    if (offset + 46 > content.length || content.readUInt32LE(offset) !== CENTRAL_ENTRY) throw refuse(IMPORT_MESSAGES.unreadable);
    const method = content.readUInt16LE(offset + 10);
    const compressedSize = content.readUInt32LE(offset + 20);
    const nameLength = content.readUInt16LE(offset + 28);
    const local = content.readUInt32LE(offset + 42);
    const name = content.toString('utf8', offset + 46, offset + 46 + nameLength);
    if (name.toLowerCase().endsWith('vbaproject.bin')) throw refuse(IMPORT_MESSAGES.macro, 415);
    offset += 46 + nameLength + content.readUInt16LE(offset + 30) + content.readUInt16LE(offset + 32);

    if (local + 30 > content.length || content.readUInt32LE(local) !== LOCAL_ENTRY) throw refuse(IMPORT_MESSAGES.unreadable);
    const start = local + 30 + content.readUInt16LE(local + 26) + content.readUInt16LE(local + 28);
    const data = content.subarray(start, Math.min(content.length, start + compressedSize));
    if (method === 0) inflated += data.length;
    else if (method === 8) inflated += await inflatedSize(data, IMPORT_LIMITS.unzippedBytes - inflated);
    else throw refuse(IMPORT_MESSAGES.unreadable);
    if (inflated > IMPORT_LIMITS.unzippedBytes) throw refuse(IMPORT_MESSAGES.unzippedTooLarge, 413);
  }
}

/** Inflates `data` only to count its bytes, stopping one chunk past `budget`. */
async function inflatedSize(data: Buffer, budget: number): Promise<number> {
  const inflate = createInflateRaw({ chunkSize: 256 * 1024 });
  inflate.end(data);
  let size = 0;
  try {
    for await (const chunk of inflate) {
      size += (chunk as Buffer).length;
      if (size > budget) break;
    }
  } catch {
    throw refuse(IMPORT_MESSAGES.unreadable);
  } finally {
    inflate.destroy();
  }
  return size;
}

type CellValue = null | string | number | boolean | Date | { [key: string]: unknown };

/** What a person sees in the cell: a date as jj/mm/aaaa, a formula by its result, rich text as its text. */
function textOf(value: CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const [year, month, day] = value.toISOString().slice(0, 10).split('-');
    return `${day}/${month}/${year}`;
  }
  if (typeof value === 'object') {
    if ('result' in value) return textOf(value.result as CellValue);
    if ('richText' in value && Array.isArray(value.richText))
      return value.richText.map((part: { text?: string }) => part.text ?? '').join('');
    if ('text' in value) return String(value.text);
    return '';
  }
  return String(value);
}

/**
 * The cells of the workbook's first sheet, header first, read row by row (exceljs' streaming reader), as
 * `LinesWriter` writes them.
 */
export async function readWorkbook(content: Buffer): Promise<Uint8Array> {
  await checkZip(content);
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([content]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles tell a date from a number.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const check = limiter();
  let found = false;
  try {
    for await (const sheet of reader) {
      found = true;
      for await (const row of sheet) {
        // exceljs numbers cells from 1: values[0] is always empty.
        const values = (row.values as CellValue[]).slice(1);
        // Each cell's text is counted before the next one is made: rich text is joined anew for every cell.
        const texts: string[] = [];
        let bytes = 0;
        for (const value of values) {
          const text = textOf(value);
          bytes += text.length;
          if (bytes > IMPORT_LIMITS.resultBytes) throw refuse(IMPORT_MESSAGES.tooMuchText, 413);
          texts.push(text);
        }
        check.add(row.number, texts);
      }
      break;
    }
  } catch (error) {
    if (error instanceof SheetError) throw error;
    throw refuse(IMPORT_MESSAGES.unreadable);
  }
  if (!found) throw refuse(IMPORT_MESSAGES.empty);
  return check.finish();
}
