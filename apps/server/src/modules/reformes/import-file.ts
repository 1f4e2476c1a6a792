import { IMPORT_MAX_ROWS, IMPORT_MESSAGES } from '@reformes/domain';
import { parse } from 'csv-parse/sync';
import { AppError } from '../../http/app-error.ts';

const refuse = (message: string, status = 422) => new AppError(status, message);
const ZIP = Buffer.from('PK\u0003\u0004', 'latin1');

/**
 * The cells of the first sheet of an uploaded file, as text, header first: a CSV in UTF-8 (`;` or `,`, with or
 * without BOM) or an xlsx workbook without macros. Anything else is refused with a French message.
 */
export async function readSheet(filename: string, content: Buffer): Promise<string[][]> {
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (extension === 'xlsm' || extension === 'xlsb' || extension === 'xls') throw refuse(IMPORT_MESSAGES.macro, 415);
  if (extension === 'xlsx' || content.subarray(0, 4).equals(ZIP)) return readWorkbook(content);
  if (extension !== 'csv' && extension !== 'txt') throw refuse(IMPORT_MESSAGES.kind, 415);
  return readCsv(content);
}

function readCsv(content: Buffer): string[][] {
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
  try {
    const lines = parse(text, { delimiter, relax_column_count: true, skip_empty_lines: false, bom: true }) as string[][];
    if (lines.length - 1 > IMPORT_MAX_ROWS) throw refuse(IMPORT_MESSAGES.tooManyRows);
    return lines;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refuse(`${IMPORT_MESSAGES.unreadable} (${(error as Error).message})`);
  }
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
    if ('error' in value) return '';
    return '';
  }
  return String(value);
}

async function readWorkbook(content: Buffer): Promise<string[][]> {
  // A macro-enabled workbook saved as .xlsx still carries its VBA project: refused by what it holds, not by its name.
  if (content.includes('xl/vbaProject.bin')) throw refuse(IMPORT_MESSAGES.macro, 415);
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw refuse(IMPORT_MESSAGES.unreadable);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw refuse(IMPORT_MESSAGES.empty);
  if (sheet.actualRowCount - 1 > IMPORT_MAX_ROWS) throw refuse(IMPORT_MESSAGES.tooManyRows);
  const lines: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, number) => {
    const values = row.values as CellValue[];
    // exceljs numbers cells from 1: values[0] is always empty.
    lines[number - 1] = values.slice(1).map((value) => textOf(value));
  });
  return Array.from(lines, (line) => line ?? []);
}
