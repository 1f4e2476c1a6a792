import { Readable } from 'node:stream';
import { AUDIT_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listEnvelope } from '../../http/envelope.ts';
import { readAhead } from '../../http/read-ahead.ts';
import { routeTable } from '../../http/route-table.ts';
import type { AuditService } from './audit.service.ts';
import { auditCsv } from './audit-csv.ts';

/** The security audit log (issue 14): the handlers of AUDIT_ROUTES (packages/domain/src/routes/audit.ts). */
export const auditRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  const on = routeTable(app);
  on(ROUTES.list, async (request) => listEnvelope(await audit.list(request.query)));

  on(ROUTES.export, async (request, reply) => {
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
  });
};
