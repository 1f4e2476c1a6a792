import { PORTFOLIO_ROUTES, type PortfolioFilters } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';

/** The filters as a query string's values. */
export const portfolioQueryOf = (filters: PortfolioFilters) =>
  Object.fromEntries(Object.entries(filters).map(([key, value]) => [key, value === undefined ? undefined : String(value)]));

/** `GET portfolio/counts`: how many reforms of the scope (and filters, status aside) stand at each status. */
export function portfolioCountsQuery(filters: Omit<PortfolioFilters, 'status'> = {}, enabled = true) {
  return queryOptions({
    queryKey: ['portfolio', 'counts', filters],
    queryFn: ({ signal }) => call(PORTFOLIO_ROUTES.counts, { query: portfolioQueryOf(filters), signal }),
    select: (response) => response.data,
    enabled,
  });
}
