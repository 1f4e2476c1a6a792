import type {
  HistoryEvent,
  HistoryRow,
  ObjectifRow,
  ReformeDetail,
  ReformeFile,
  ReformeFileRef,
  ReformeFilters,
  ReformeRow,
  ResultatRow,
  SuiviRecord,
} from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ApiResponse, api } from '../../api/client.ts';
import { type ListPageData, PAGE_SIZE } from '../../api/list-api.ts';

/** Every query about reforms starts with this key: one invalidation reloads lists and sheets. */
export const REFORMES_KEY = ['reformes'] as const;

type PagedResponse = ApiResponse<ListPageData<ReformeRow>>;

function pagedQuery(path: string, page: number, filters: ReformeFilters = {}) {
  return queryOptions({
    queryKey: [...REFORMES_KEY, path, page, filters],
    queryFn: ({ signal }) =>
      api.get<PagedResponse>(path, {
        action: 'list',
        query: { per_page: PAGE_SIZE, page, ...filters },
        signal,
      }),
    select: (response) => response.data,
    placeholderData: keepPreviousData,
    // Others move reforms along the workflow: coming back to the tab shows where they stand now.
    refetchOnWindowFocus: true,
  });
}

/** "Liste des réformes" and the search screen: filtered, searched and paged by the server. */
export const reformesPageQuery = (page: number, filters: ReformeFilters) => pagedQuery('reformes', page, filters);

/** "Liste de mes enregistrements": the reforms the user created; the server searches them with `search`. */
export const myReformesPageQuery = (page: number, { search }: ReformeFilters = {}) =>
  pagedQuery('reformes/users/get-my-list', page, { search });

/** "Liste des réformes à valider": the reforms at the user's stage, in the user's scope; searched with `search`. */
export const reformesByRolePageQuery = (page: number, { search }: ReformeFilters = {}) =>
  pagedQuery('reformes/users/get-by-role', page, { search });

export function reformeQuery(id: number) {
  return queryOptions({
    queryKey: [...REFORMES_KEY, 'detail', id],
    queryFn: ({ signal }) => api.get<ApiResponse<ReformeDetail>>(`reformes/${id}`, { action: 'show', signal }),
    select: (response) => response.data,
  });
}

/** What the reform form sends (spec §7 "Reforms", POST and PUT). */
export type ReformePayload = Record<string, unknown>;

export const createReforme = (body: ReformePayload) => api.post<ApiResponse<ReformeDetail>>('reformes', { action: 'add', body });

export const updateReforme = (id: number, body: ReformePayload) =>
  api.put<ApiResponse<ReformeDetail>>(`reformes/${id}`, { action: 'edit', body });

export const deleteReforme = (id: number) => api.delete<{ message: string }>(`reformes/${id}`, { action: 'delete' });

/** Spec §4: status 1 activates, 0 deactivates. */
export const setReformeActive = (id: number, isActive: boolean) =>
  api.get<ApiResponse<ReformeDetail>>(`reformes/${id}/state/${isActive ? 1 : 0}`, { action: 'status' });

export type { HistoryEvent, HistoryRow, ObjectifRow, ReformeDetail, ReformeFile, ReformeFileRef, ReformeRow, ResultatRow, SuiviRecord };
