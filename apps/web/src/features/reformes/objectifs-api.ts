import { OBJECTIFS_ROUTES, REFORMES_ROUTES } from '@reformes/domain';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { pageOf, rowsOf } from '../../api/list-api.ts';
import { type FetchPage, SERVER_PAGE_SIZE } from '../../components/server-select/server-page.ts';
import { REFORMES_KEY } from './reformes-api.ts';

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
    queryFn: ({ signal }) => call(OBJECTIFS_ROUTES.objectifsOfReforme, { params: { id: reformeId }, signal }),
    select: rowsOf,
  });
}

/** `GET objectifs/{id}`: one objective with its results (the details of /admin/objectifs). */
export function objectifQuery(id: number) {
  return queryOptions({
    queryKey: [...OBJECTIFS_KEY, 'detail', id],
    queryFn: ({ signal }) => call(OBJECTIFS_ROUTES.showObjectif, { params: { id }, signal }),
    select: (response) => response.data,
  });
}

export const createObjectif = (body: { reforme_id: number; libobjectif: string }) => call(OBJECTIFS_ROUTES.createObjectif, { body });

export const updateObjectif = (id: number, body: { reforme_id: number; libobjectif: string }) =>
  call(OBJECTIFS_ROUTES.updateObjectif, { params: { id }, body });

export const deleteObjectif = (id: number) => call(OBJECTIFS_ROUTES.removeObjectif, { params: { id } });

export type ResultatPayload = {
  objectif_id: number;
  libresult: string;
  indicateur: string;
  valeur_cible: number;
  valeurref: number;
};

export const createResultat = (body: ResultatPayload) => call(OBJECTIFS_ROUTES.createResultat, { body });

export const updateResultat = (id: number, body: ResultatPayload) => call(OBJECTIFS_ROUTES.updateResultat, { params: { id }, body });

export const deleteResultat = (id: number) => call(OBJECTIFS_ROUTES.removeResultat, { params: { id } });

/** Spec §4: `GET objectifs/{id}/state/{1|0}` or `GET resultats/{id}/state/{1|0}` activates or deactivates. */
export const setActive = (resource: 'objectifs' | 'resultats', id: number, isActive: boolean) =>
  call(resource === 'objectifs' ? OBJECTIFS_ROUTES.setObjectifState : OBJECTIFS_ROUTES.setResultatState, {
    params: { id, state: isActive ? '1' : '0' },
  });

/** `GET reformes?per_page&page&search`: one page of the reforms in scope, for the objective form's reform picker. */
export const fetchReformesPage: FetchPage<{ id: number; libref: string }> = async (search, page, signal) => {
  const response = await call(REFORMES_ROUTES.list, { query: { per_page: SERVER_PAGE_SIZE, page, search: search || undefined }, signal });
  return pageOf(response);
};
