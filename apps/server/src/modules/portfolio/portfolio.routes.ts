import { envelopeShape, MESSAGES, pagedShape, portfolioCountsShape, portfolioFiltersSchema, portfolioRowShape } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, pagedList } from '../../http/envelope.ts';
import { authOf } from '../../http/guard.ts';
import { pageQuerySchema } from '../../http/pagination.ts';
import type { PortfolioService } from './portfolio.service.ts';

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
};
