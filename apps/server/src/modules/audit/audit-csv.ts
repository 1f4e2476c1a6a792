import { AUDIT_COLUMNS, auditActionLabel, auditResultText, auditTargetText } from '@reformes/domain';
import type { AuditRow } from './audit.service.ts';

/** French Excel opens a UTF-8 file correctly only when it starts with a byte order mark, and splits on ';'. */
const BOM = '\uFEFF';
const SEPARATOR = ';';
const LINE_END = '\r\n';

/**
 * One CSV cell, safe to open in a spreadsheet: a text starting with = + - @ (or a tab or carriage return)
 * would run as a formula, so it gets a leading quote (OWASP "CSV injection"); a cell holding the separator,
 * a quote or a line break is quoted. `csvCell('=1+1')` is `'=1+1`, `csvCell('a;b')` is `"a;b"`.
 */
export function csvCell(value: string | number | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[";\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: Array<string | number | null | undefined>): string {
  return cells.map(csvCell).join(SEPARATOR) + LINE_END;
}

/** True for a time zone name the runtime knows ("Europe/Paris", "UTC"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('fr-FR', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The export, as text chunks: the header, then one chunk per page of entries (dates as jj/mm/aaaa hh:mm:ss
 * in `timeZone`, the labels of the screen, the details as JSON). Only one page is ever held.
 */
export async function* auditCsv(pages: AsyncIterable<AuditRow[]>, timeZone: string): AsyncGenerator<string> {
  const date = new Intl.DateTimeFormat('fr-FR', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const [, ...columns] = AUDIT_COLUMNS;
  yield BOM + csvLine([`Date (${timeZone})`, ...columns, 'Détails']);
  for await (const rows of pages) {
    yield rows
      .map((row) =>
        csvLine([
          date.format(row.created_at),
          row.actor_email,
          auditActionLabel(row.action),
          auditTargetText(row),
          auditResultText(row),
          row.ip,
          Object.keys(row.details).length > 0 ? JSON.stringify(row.details) : '',
        ]),
      )
      .join('');
  }
}
