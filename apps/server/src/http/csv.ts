/** French Excel opens a UTF-8 file correctly only when it starts with a byte order mark, and splits on ';'. */
export const CSV_BOM = '\uFEFF';
const SEPARATOR = ';';
const LINE_END = '\r\n';

/**
 * One CSV cell, safe to open in a spreadsheet. Every text is quoted (its quotes doubled): a spreadsheet whose locale
 * splits on ',' would otherwise cut `x,=1+1` into a second cell starting with a formula. A text starting with
 * = + - @ (or a tab or carriage return) would run as a formula, so it also gets a leading quote (OWASP "CSV
 * injection"); numbers stay bare, as numbers. `csvCell('=1+1')` is `"'=1+1"`, `csvCell('a;b')` is `"a;b"`, `csvCell(3)` is `3`.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

/** One line of cells, separator and line end included. */
export function csvLine(cells: Array<string | number | null | undefined>): string {
  return cells.map(csvCell).join(SEPARATOR) + LINE_END;
}
