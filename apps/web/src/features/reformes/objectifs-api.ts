import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { type ApiResponse, api } from '../../api/client.ts';
import { type FetchPage, SERVER_PAGE_SIZE, type ServerPage } from '../../components/server-select/server-page.ts';
import { type ObjectifRow, REFORMES_KEY, type ResultatRow } from './reformes-api.ts';

/** Every objectives query starts with the resource path, as the generic list's do. */
export const OBJECTIFS_KEY = ['objectifs'] as const;

/** Reloads what shows objectives: the objectives lists and the reforms' detail sheets. */
export function useReloadObjectifs() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: OBJECTIFS_KEY }), queryClient.invalidateQueries({ queryKey: REFORMES_KEY })]);
}

/** `GET objectifs/by-reforme/{id}`: the reform's objectives with their expected results. */
export function objectifsOfReformeQuery(reformeId: number) {
  return queryOptions({
    queryKey: [...OBJECTIFS_KEY, 'by-reforme', reformeId],
    queryFn: ({ signal }) => api.get<ApiResponse<ObjectifRow[]>>(`objectifs/by-reforme/${reformeId}`, { action: 'list', signal }),
    select: (response) => response.data,
  });
}

/** `GET objectifs/{id}`: one objective with its results (the details of /admin/objectifs). */
export function objectifQuery(id: number) {
  return queryOptions({
    queryKey: [...OBJECTIFS_KEY, 'detail', id],
    queryFn: ({ signal }) => api.get<ApiResponse<ObjectifRow>>(`objectifs/${id}`, { action: 'show', signal }),
    select: (response) => response.data,
  });
}

export const createObjectif = (body: { reforme_id: number; libobjectif: string }) =>
  api.post<ApiResponse<ObjectifRow>>('objectifs', { action: 'add', body });

export const updateObjectif = (id: number, body: { reforme_id: number; libobjectif: string }) =>
  api.put<ApiResponse<ObjectifRow>>(`objectifs/${id}`, { action: 'edit', body });

export const deleteObjectif = (id: number) => api.delete<{ message: string }>(`objectifs/${id}`, { action: 'delete' });

export interface ResultatPayload {
  objectif_id: number;
  libresult: string;
  indicateur: string;
  valeur_cible: number;
  valeurref: number;
}

export const createResultat = (body: ResultatPayload) => api.post<ApiResponse<ResultatRow>>('resultats', { action: 'add', body });

export const updateResultat = (id: number, body: ResultatPayload) =>
  api.put<ApiResponse<ResultatRow>>(`resultats/${id}`, { action: 'edit', body });

export const deleteResultat = (id: number) => api.delete<{ message: string }>(`resultats/${id}`, { action: 'delete' });

/** Spec §4: `GET objectifs/{id}/state/{1|0}` or `GET resultats/{id}/state/{1|0}` activates or deactivates. */
export const setActive = (resource: 'objectifs' | 'resultats', id: number, isActive: boolean) =>
  api.get<ApiResponse<unknown>>(`${resource}/${id}/state/${isActive ? 1 : 0}`, { action: 'status' });

/** `GET reformes?per_page&page&search`: one page of the reforms in scope, for the objective form's reform picker. */
export const fetchReformesPage: FetchPage<{ id: number; libref: string }> = async (search, page, signal) => {
  const response = await api.get<ApiResponse<ServerPage<{ id: number; libref: string }>>>('reformes', {
    action: 'list',
    query: { per_page: SERVER_PAGE_SIZE, page, search: search || undefined },
    signal,
  });
  return response.data;
};
