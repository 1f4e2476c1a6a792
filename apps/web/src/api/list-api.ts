import type { PageOf } from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ApiResponse, api } from './client.ts';

/** Spec §9: every list shows 10 rows a page, from page 1. */
export const PAGE_SIZE = 10;

/** The page object of a paginated list (architecture §3), as shapes/envelope.ts declares it. */
export type ListPageData<Row> = PageOf<Row>;

/** Every query of a resource starts with its path, so one invalidation reloads them all. */
export const resourceKey = (resource: string) => [resource] as const;

/** A page of `GET {resource}?per_page=10&page=N`, searched by the server when `search` is given. */
export function pageQuery<Row>(resource: string, page: number, search = '') {
  return queryOptions({
    queryKey: [resource, 'page', page, search],
    queryFn: ({ signal }) =>
      api.get<ApiResponse<ListPageData<Row>>>(resource, {
        action: 'list',
        query: { per_page: PAGE_SIZE, page, search: search || undefined },
        signal,
      }),
    select: (response) => response.data,
    placeholderData: keepPreviousData,
  });
}

/**
 * The whole list (the choices of a select of a reference list). Beyond the server's whole-list size the
 * answer comes in pages with their total: every page is read, so no choice is left out.
 */
export function allRowsQuery<Row>(resource: string) {
  return queryOptions({
    queryKey: [resource, 'all'],
    queryFn: async ({ signal }) => {
      const first = await api.get<ApiResponse<Row[] | ListPageData<Row>>>(resource, { action: 'list', signal });
      if (Array.isArray(first.data)) return first.data;
      const rows = [...first.data.data];
      for (let page = 2; page <= first.data.last_page; page++) {
        const next = await api.get<ApiResponse<ListPageData<Row>>>(resource, { action: 'list', query: { page }, signal });
        rows.push(...next.data.data);
      }
      return rows;
    },
  });
}

/** `POST {resource}-search?per_page=10&page=N {search}`: a page of the remote fallback of spec §5, with the true total. */
export function searchQuery<Row>(resource: string, search: string, page: number) {
  return queryOptions({
    queryKey: [resource, 'search', search, page],
    queryFn: ({ signal }) =>
      api.post<ApiResponse<ListPageData<Row>>>(`${resource}-search`, {
        action: 'list',
        query: { per_page: PAGE_SIZE, page },
        body: { search },
        signal,
      }),
    select: (response) => response.data,
    // Paging through the results keeps the current page on screen; another text does not show the last one's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === search ? previous : undefined),
  });
}

export function createRow<Row>(resource: string, body: unknown) {
  return api.post<ApiResponse<Row>>(resource, { action: 'add', body });
}

export function updateRow<Row>(resource: string, id: number, body: unknown) {
  return api.put<ApiResponse<Row>>(`${resource}/${id}`, { action: 'edit', body });
}

export function deleteRow(resource: string, id: number) {
  return api.delete<{ message: string }>(`${resource}/${id}`, { action: 'delete' });
}

/** Spec §4: status 1 activates, 0 deactivates. */
export function setRowState<Row>(resource: string, id: number, isActive: boolean) {
  return api.get<ApiResponse<Row>>(`${resource}/${id}/state/${isActive ? 1 : 0}`, { action: 'status' });
}

/** The page of a list answer asked by pages (`per_page`); a whole list, should the server send one, as its only page. */
export function pageOf<Row>(answer: { data: Row[] | ListPageData<Row> }): ListPageData<Row> {
  if (!Array.isArray(answer.data)) return answer.data;
  const total = answer.data.length;
  return { data: answer.data, current_page: 1, per_page: total, total, last_page: 1 };
}

/** The rows of a list answer, whole or one page. */
export function rowsOf<Row>(answer: { data: Row[] | ListPageData<Row> }): Row[] {
  return Array.isArray(answer.data) ? answer.data : answer.data.data;
}
