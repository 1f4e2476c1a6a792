import { MESSAGES, portfolioExportName, PORTFOLIO_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, pagedList } from '../../http/envelope.ts';
import { onEachExport } from '../../http/export-routes.ts';
import { authOf } from '../../http/guard.ts';
import { readAhead } from '../../http/read-ahead.ts';
import { routeTable } from '../../http/route-table.ts';
import { type PortfolioService, todayOf } from './portfolio.service.ts';
import { portfolioCsv, portfolioXlsx } from './portfolio-export.ts';

/** The handlers of PORTFOLIO_ROUTES (packages/domain/src/routes/portfolio.ts). */
export const portfolioRoutes: FastifyPluginAsyncZod<{ portfolio: PortfolioService }> = async (app, { portfolio }) => {
  const on = routeTable(app);
  on(ROUTES.page, async (request) => {
    const { page, per_page, ...filters } = request.query;
    return pagedList(await portfolio.page(authOf(request), filters, { page, per_page }));
  });

  on(ROUTES.counts, async (request) => ok(await portfolio.counts(authOf(request), request.query), MESSAGES.success));

  // Exports of the overview with its filters, streamed batch by batch (issue 16: 100 000 rows never in memory).
  const formats = [
    [ROUTES.exportCsv, portfolioCsv],
    [ROUTES.exportXlsx, portfolioXlsx],
  ] as const;
  onEachExport(on, formats, ({ spec, extension, write }) => async (request, reply) => {
    const all = await readAhead(portfolio.batches(authOf(request), request.query));
    return reply
      .type(spec.file)
      .header('Content-Disposition', `attachment; filename="${portfolioExportName(todayOf(), extension)}"`)
      .header('Cache-Control', 'private, no-store')
      .send(write(all));
  });
};
