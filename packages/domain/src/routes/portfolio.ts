import { pageQuerySchema } from '../paging.ts';
import { portfolioFiltersSchema } from '../portfolio-status.ts';
import { envelopeShape, pagedShape } from '../shapes/envelope.ts';
import { portfolioCountsShape, portfolioRowShape } from '../shapes/portfolio.ts';
import { routesOf } from './route.ts';

// Whoever sees the follow-up view ("Suivi des réformes") sees the portfolio.
const access = { feature: 'suivi-results', action: 'list' } as const;

/** `/portfolio`: a page of the overview with its filters. */
export const portfolioPageQuerySchema = pageQuerySchema.extend(portfolioFiltersSchema.shape);

/** The portfolio overview (issue 16) and its exports. */
export const PORTFOLIO_ROUTES = routesOf(['Suivi des réformes'], {
  page: {
    method: 'GET',
    path: '/portfolio',
    access,
    summary: 'Portefeuille : réformes actives du périmètre avec leur statut, les plus en retard d’abord',
    querystring: portfolioPageQuerySchema,
    answer: pagedShape(portfolioRowShape),
  },
  counts: {
    method: 'GET',
    path: '/portfolio/counts',
    access,
    summary: 'Nombre de réformes du périmètre par statut',
    querystring: portfolioFiltersSchema,
    answer: envelopeShape(portfolioCountsShape),
  },
  exportCsv: {
    method: 'GET',
    path: '/portfolio/export.csv',
    access,
    summary: 'Export CSV du portefeuille (mêmes filtres, le plus en retard d’abord)',
    querystring: portfolioFiltersSchema,
    file: 'text/csv; charset=utf-8',
  },
  exportXlsx: {
    method: 'GET',
    path: '/portfolio/export.xlsx',
    access,
    summary: 'Export XLSX du portefeuille (mêmes filtres, le plus en retard d’abord)',
    querystring: portfolioFiltersSchema,
    file: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
});
