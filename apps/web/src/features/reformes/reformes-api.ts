import {
  type AnswerOf,
  type HistoryEvent,
  type HistoryRow,
  type ObjectifRow,
  REFORMES_ROUTES,
  type ReformeDetail,
  type ReformeFile,
  type ReformeFileRef,
  type ReformeFilters,
  type ReformeRow,
  type ResultatRow,
  type SuiviRecord,
} from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { PAGE_SIZE, pageOf } from '../../api/list-api.ts';

/** Every query about reforms starts with this key: one invalidation reloads lists and sheets. */
export const REFORMES_KEY = ['reformes'] as const;

/** The three paged lists of reforms: the whole list, mine, those at my stage. */
type ReformesListRoute = typeof REFORMES_ROUTES.list | typeof REFORMES_ROUTES.myList | typeof REFORMES_ROUTES.byRole;

function pagedQuery(spec: ReformesListRoute, page: number, filters: ReformeFilters = {}) {
  return queryOptions({
    queryKey: [...REFORMES_KEY, spec.path.slice(1), page, filters],
    queryFn: ({ signal }): Promise<AnswerOf<ReformesListRoute>> => call(spec, { query: { per_page: PAGE_SIZE, page, ...filters }, signal }),
    select: pageOf,
    placeholderData: keepPreviousData,
    // Others move reforms along the workflow: coming back to the tab shows where they stand now.
    refetchOnWindowFocus: true,
  });
}

/** "Liste des réformes" and the search screen: filtered, searched and paged by the server. */
export const reformesPageQuery = (page: number, filters: ReformeFilters) => pagedQuery(REFORMES_ROUTES.list, page, filters);

/** "Liste de mes enregistrements": the reforms the user created; the server searches them with `search`. */
export const myReformesPageQuery = (page: number, { search }: ReformeFilters = {}) => pagedQuery(REFORMES_ROUTES.myList, page, { search });

/** "Liste des réformes à valider": the reforms at the user's stage, in the user's scope; searched with `search`. */
export const reformesByRolePageQuery = (page: number, { search }: ReformeFilters = {}) =>
  pagedQuery(REFORMES_ROUTES.byRole, page, { search });

export function reformeQuery(id: number) {
  return queryOptions({
    queryKey: [...REFORMES_KEY, 'detail', id],
    queryFn: ({ signal }) => call(REFORMES_ROUTES.detail, { params: { id }, signal }),
    select: (response) => response.data,
  });
}

/** What the reform form sends (spec §7 "Reforms", POST and PUT). */
export type ReformePayload = Record<string, unknown>;

export const createReforme = (body: ReformePayload) => call(REFORMES_ROUTES.create, { body });

export const updateReforme = (id: number, body: ReformePayload) => call(REFORMES_ROUTES.update, { params: { id }, body });

export const deleteReforme = (id: number) => call(REFORMES_ROUTES.remove, { params: { id } });

/** Spec §4: status 1 activates, 0 deactivates. */
export const setReformeActive = (id: number, isActive: boolean) =>
  call(REFORMES_ROUTES.setState, { params: { id, state: isActive ? '1' : '0' } });

export type { HistoryEvent, HistoryRow, ObjectifRow, ReformeDetail, ReformeFile, ReformeFileRef, ReformeRow, ResultatRow, SuiviRecord };
