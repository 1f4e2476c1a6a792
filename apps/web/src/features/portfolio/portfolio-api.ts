import { PORTFOLIO_ROUTES, type PortfolioFilters, portfolioExportName, portfolioFiltersSchema } from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { call } from '../../api/call.ts';
import { downloadFile } from '../../api/download.ts';
import { portfolioQueryOf } from '../../components/portfolio/portfolio-counts.ts';

export const PORTFOLIO_KEY = ['portfolio'] as const;
export const PORTFOLIO_PAGE_SIZE = 10;

/** The filters named in the address (`?status=en_retard&nature_id=2`); anything malformed is ignored. */
export function portfolioFiltersOf(params: URLSearchParams): PortfolioFilters {
  const filters: Record<string, unknown> = {};
  for (const key of Object.keys(portfolioFiltersSchema.shape)) {
    const value = params.get(key);
    if (value === null || value === '') continue;
    const parsed = portfolioFiltersSchema.shape[key as keyof PortfolioFilters].safeParse(value);
    if (parsed.success) filters[key] = parsed.data;
  }
  return filters as PortfolioFilters;
}

/** `GET portfolio`: one page of the active reforms in scope, most urgent first, with the true total. */
export function portfolioPageQuery(filters: PortfolioFilters, page: number) {
  return queryOptions({
    queryKey: [...PORTFOLIO_KEY, 'page', filters, page],
    queryFn: ({ signal }) =>
      call(PORTFOLIO_ROUTES.page, { query: { ...portfolioQueryOf(filters), per_page: PORTFOLIO_PAGE_SIZE, page }, signal }),
    select: (response) => response.data,
    placeholderData: keepPreviousData,
  });
}

/** Saves the overview, with its filters, as the server streams it (CSV or xlsx). */
export function downloadPortfolio(filters: PortfolioFilters, extension: 'csv' | 'xlsx') {
  const spec = extension === 'csv' ? PORTFOLIO_ROUTES.exportCsv : PORTFOLIO_ROUTES.exportXlsx;
  return downloadFile(spec, { query: portfolioQueryOf(filters) }, portfolioExportName(dayjs().format('YYYY-MM-DD'), extension));
}
