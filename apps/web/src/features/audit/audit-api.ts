import { AUDIT_ROUTES, type AuditFilters } from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { call } from '../../api/call.ts';
import { downloadFile } from '../../api/download.ts';
import { PAGE_SIZE, pageOf } from '../../api/list-api.ts';

export const AUDIT_RESOURCE = 'audit-logs';

/** What the screen's filters hold: '' for "all"; days as yyyy-mm-dd (the French date input's value). */
export interface AuditFilterValues {
  action: string;
  result: string;
  from: string;
  to: string;
}

export const NO_FILTERS: AuditFilterValues = { action: '', result: '', from: '', to: '' };

/**
 * The query string of the filters: the days typed are the user's local days, sent as the instants they start
 * and end at, so an event at 00:30 in Paris is on the day the screen shows it.
 */
export function auditQueryOf({ action, result, from, to }: AuditFilterValues, search = ''): AuditFilters {
  return {
    action: (action || undefined) as AuditFilters['action'],
    result: (result || undefined) as AuditFilters['result'],
    from: from ? dayjs(from).startOf('day').toISOString() : undefined,
    to: to ? dayjs(to).endOf('day').toISOString() : undefined,
    search: search || undefined,
  };
}

/** `GET audit-logs?per_page=10&page=N&...`: the newest first, with the true total. */
export function auditPageQuery(page: number, filters: AuditFilters) {
  return queryOptions({
    queryKey: [AUDIT_RESOURCE, 'page', page, filters],
    queryFn: ({ signal }) => call(AUDIT_ROUTES.list, { query: { per_page: PAGE_SIZE, page, ...filters }, signal }),
    select: pageOf,
    placeholderData: keepPreviousData,
  });
}

/** `GET audit-logs/export.csv` with the same filters and the browser's time zone, saved through the API client (token). */
export function downloadAuditCsv(filters: AuditFilters) {
  const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const query = { tz, ...Object.fromEntries(Object.entries(filters).map(([key, value]) => [key, value || undefined])) };
  return downloadFile(AUDIT_ROUTES.export, { query }, `journal-audit-${dayjs().format('YYYY-MM-DD')}.csv`);
}
