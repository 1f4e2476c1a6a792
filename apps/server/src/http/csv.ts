/** French Excel opens a UTF-8 file correctly only when it starts with a byte order mark, and splits on ';'. */
export const CSV_BOM = '\uFEFF';
const SEPARATOR = ';';
const LINE_END = '\r\n';

/**
 * One CSV cell, safe to open in a spreadsheet: a text starting with = + - @ (or a tab or carriage return)
 * would run as a formula, so it gets a leading quote (OWASP "CSV injection"); numbers stay numbers. A cell
 * holding the separator, a quote or a line break is quoted. `csvCell('=1+1')` is `'=1+1`, `csvCell('a;b')` is `"a;b"`.
 */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[";\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One line of cells, separator and line end included. */
export function csvLine(cells: Array<string | number | null | undefined>): string {
  return cells.map(csvCell).join(SEPARATOR) + LINE_END;
}
