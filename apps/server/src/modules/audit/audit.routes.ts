import { Readable } from 'node:stream';
import { AUDIT_MESSAGES, auditEntryShape, auditFiltersSchema, isAuditPeriodInOrder, listShape } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listEnvelope } from '../../http/envelope.ts';
import { pageQuerySchema } from '../../http/pagination.ts';
import { readAhead } from '../../http/read-ahead.ts';
import type { AuditService } from './audit.service.ts';
import { auditCsv, isTimeZone } from './audit-csv.ts';

const tags = [AUDIT_MESSAGES.title];
const access = { access: { feature: 'audit' as const, action: 'list' as const } };
const periodInOrder = { error: AUDIT_MESSAGES.periodOrder, path: ['to'] };

const listQuerySchema = pageQuerySchema.extend(auditFiltersSchema.shape).refine(isAuditPeriodInOrder, periodInOrder);
const exportQuerySchema = auditFiltersSchema
  .extend({
    /** The time zone of the dates in the file: the browser's, so they read as on the screen. */
    tz: z.string().refine(isTimeZone, { error: 'Fuseau horaire inconnu' }).default('UTC'),
  })
  .refine(isAuditPeriodInOrder, periodInOrder);

/** The security audit log (issue 14): admin only, read as pages or exported whole as CSV. */
export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    '/audit-logs',
    {
      config: access,
      schema: {
        tags,
        summary: "Journal d'audit : page filtrée, la plus récente d'abord",
        querystring: listQuerySchema,
        response: { 200: listShape(auditEntryShape) },
      },
    },
    async (request) => listEnvelope(await audit.list(request.query)),
  );

  app.get(
    '/audit-logs/export.csv',
    {
      config: { ...access, fileAnswer: 'text/csv; charset=utf-8' },
      schema: {
        tags,
        summary: "Export CSV du journal d'audit (mêmes filtres ; séparateur « ; », UTF-8 avec BOM)",
        querystring: exportQuerySchema,
      },
    },
    async (request, reply) => {
      const { tz, ...filters } = request.query;
      // The first page is read before answering; the export is recorded once the file is sure to start.
      const all = await readAhead(audit.pages(filters));
      await audit.recordExport(filters);
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="journal-audit-${day}.csv"`)
        .header('Cache-Control', 'private, no-store')
        .send(Readable.from(auditCsv(all, tz), { objectMode: false }));
    },
  );
};
