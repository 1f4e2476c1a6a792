import { AUDIT_COLUMNS, auditActionLabel, auditResultText, auditTargetText } from '@reformes/domain';
import { CSV_BOM as BOM, csvLine } from '../../http/csv.ts';
import type { AuditRow } from './audit.service.ts';

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
