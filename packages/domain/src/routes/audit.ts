import { AUDIT_MESSAGES, auditFiltersSchema, isAuditPeriodInOrder } from '../audit.ts';
import { pageQuerySchema } from '../paging.ts';
import { auditEntryShape } from '../shapes/audit.ts';
import { listShape } from '../shapes/envelope.ts';
import { z } from '../zod-locale.ts';
import { routesOf } from './route.ts';

const periodInOrder = { error: AUDIT_MESSAGES.periodOrder, path: ['to'] };

/** Whether a time zone name is one the runtime knows ("Europe/Paris"). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('fr-FR', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

export const auditListQuerySchema = pageQuerySchema.extend(auditFiltersSchema.shape).refine(isAuditPeriodInOrder, periodInOrder);
export const auditExportQuerySchema = auditFiltersSchema
  .extend({
    /** The time zone of the dates in the file: the browser's, so they read as on the screen. */
    tz: z.string().refine(isTimeZone, { error: 'Fuseau horaire inconnu' }).default('UTC'),
  })
  .refine(isAuditPeriodInOrder, periodInOrder);

const access = { feature: 'audit', action: 'list' } as const;

/** The security audit log (issue 14): admin only, read as pages or exported whole as CSV. */
export const AUDIT_ROUTES = routesOf([AUDIT_MESSAGES.title], {
  list: {
    method: 'GET',
    path: '/audit-logs',
    access,
    summary: "Journal d'audit : page filtrée, la plus récente d'abord",
    querystring: auditListQuerySchema,
    answer: listShape(auditEntryShape),
  },
  export: {
    method: 'GET',
    path: '/audit-logs/export.csv',
    access,
    summary: "Export CSV du journal d'audit (mêmes filtres ; séparateur « ; », UTF-8 avec BOM)",
    querystring: auditExportQuerySchema,
    file: 'text/csv; charset=utf-8',
  },
});
