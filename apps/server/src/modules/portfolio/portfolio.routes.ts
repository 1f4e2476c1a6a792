import {
  envelopeShape,
  MESSAGES,
  pagedShape,
  portfolioCountsShape,
  portfolioExportName,
  portfolioFiltersSchema,
  portfolioRowShape,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, pagedList } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { pageQuerySchema } from '../../http/pagination.ts';
import { readAhead } from '../../http/read-ahead.ts';
import { type PortfolioService, todayOf } from './portfolio.service.ts';
import { portfolioCsv, portfolioXlsx } from './portfolio-export.ts';

const tags = ['Suivi des réformes'];
// Whoever sees the follow-up view ("Suivi des réformes") sees the portfolio.
const access = { feature: 'suivi-results', action: 'list' } as const;

export const portfolioRoutes: FastifyPluginAsyncZod<{ portfolio: PortfolioService }> = async (app, { portfolio }) => {
  app.get(
    '/portfolio',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Portefeuille : réformes actives du périmètre avec leur statut, les plus en retard d’abord',
        querystring: pageQuerySchema.extend(portfolioFiltersSchema.shape),
        response: { 200: pagedShape(portfolioRowShape) },
      },
    },
    async (request) => {
      const { page, per_page, ...filters } = request.query;
      return pagedList(await portfolio.page(authOf(request), filters, { page, per_page }));
    },
  );

  app.get(
    '/portfolio/counts',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Nombre de réformes du périmètre par statut',
        querystring: portfolioFiltersSchema,
        response: { 200: envelopeShape(portfolioCountsShape) },
      },
    },
    async (request) => ok(await portfolio.counts(authOf(request), request.query), MESSAGES.success),
  );

  // Exports of the overview with its filters, streamed batch by batch (issue 16: 100 000 rows never in memory).
  const formats = {
    csv: { type: 'text/csv; charset=utf-8', write: portfolioCsv },
    xlsx: { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', write: portfolioXlsx },
  } as const;
  for (const [extension, format] of Object.entries(formats) as Array<[keyof typeof formats, (typeof formats)[keyof typeof formats]]>) {
    app.get(
      `/portfolio/export.${extension}`,
      {
        config: { access, fileAnswer: format.type },
        schema: {
          tags,
          summary: `Export ${extension.toUpperCase()} du portefeuille (mêmes filtres, le plus en retard d’abord)`,
          querystring: portfolioFiltersSchema,
        },
      },
      async (request, reply) => {
        const all = await readAhead(portfolio.batches(authOf(request), request.query));
        return reply
          .type(format.type)
          .header('Content-Disposition', `attachment; filename="${portfolioExportName(todayOf(), extension)}"`)
          .header('Cache-Control', 'private, no-store')
          .send(format.write(all));
      },
    );
  }
};
