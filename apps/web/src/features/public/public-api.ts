import {
  PUBLIC_ROUTES,
  type PublicFilterOptions,
  type PublicMeasure,
  type PublicObjectif,
  type PublicReforme,
  type PublicReformeDetail,
  type PublicResultat,
  type ReformeFilters,
} from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { API_BASE } from '../../api/client.ts';
import { PAGE_SIZE, pageOf } from '../../api/list-api.ts';

const PUBLIC_KEY = ['public-reformes'] as const;

/** `GET reformes/public/suivi-result`: filtered, searched and paged by the server. */
export function publicReformesQuery(page: number, filters: ReformeFilters) {
  return queryOptions({
    queryKey: [...PUBLIC_KEY, 'page', page, filters],
    queryFn: ({ signal }) => call(PUBLIC_ROUTES.page, { query: { per_page: PAGE_SIZE, page, ...filters }, signal }),
    select: pageOf,
    placeholderData: keepPreviousData,
  });
}

/** The filter options, drawn from the published reforms themselves. */
export function publicFiltersQuery() {
  return queryOptions({
    queryKey: [...PUBLIC_KEY, 'filters'],
    queryFn: ({ signal }) => call(PUBLIC_ROUTES.filters, { signal }),
    select: (response) => response.data,
    staleTime: 5 * 60_000,
  });
}

export function publicReformeQuery(id: number) {
  return queryOptions({
    queryKey: [...PUBLIC_KEY, 'detail', id],
    queryFn: ({ signal }) => call(PUBLIC_ROUTES.detail, { params: { id }, signal }),
    select: (response) => response.data,
  });
}

/** The open-data download of the list as it is filtered now: a plain link, no sign-in needed. */
export function openDataUrl(format: 'csv' | 'json', filters: ReformeFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  const query = params.toString();
  return `${API_BASE}/reformes/public/export.${format}${query ? `?${query}` : ''}`;
}

export type { PublicFilterOptions, PublicMeasure, PublicObjectif, PublicReforme, PublicReformeDetail, PublicResultat };
