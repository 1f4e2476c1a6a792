import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { type ApiResponse, api } from '../../api/client.ts';

/** A follow-up record (spec §3): rate and value as the API's numeric strings, date yyyy-mm-dd. */
export interface SuiviRecord {
  id: number;
  taux_realisat: string;
  valeur_realise: string;
  date: string;
}

export interface SuiviResultat {
  id: number;
  libresult: string;
  indicateur: string;
  valeur_cible: string;
  valeurref: string;
  /** Spec §4: 0 pending, 1 validated. */
  status: number;
  suivi_results: SuiviRecord[];
}

export interface SuiviObjectif {
  id: number;
  libobjectif: string;
  results: SuiviResultat[];
}

export interface SuiviReforme {
  id: number;
  libref: string;
  periodexe: string;
  isPublished: boolean;
  stage: number;
  objectifs: SuiviObjectif[];
}

/** Every query of this feature starts with this key: one invalidation reloads both screens. */
export const SUIVI_KEY = ['suivi'] as const;

/**
 * `GET reformes/users/get-suivi-result`: the reforms in the user's scope with their objectives, results
 * and follow-up records, nested — the chained selects and the follow-up view read from this one answer.
 */
export function suiviReformesQuery() {
  return queryOptions({
    queryKey: [...SUIVI_KEY, 'reformes'],
    queryFn: ({ signal }) => api.get<ApiResponse<SuiviReforme[]>>('reformes/users/get-suivi-result', { action: 'list', signal }),
    select: (response) => response.data,
  });
}

/** What `POST suivi-results` takes once the form is parsed. */
export interface SuiviPayload {
  result_id: number;
  taux_realisat: number;
  valeur_realise: number;
  date: string;
}

export const createSuivi = (body: SuiviPayload) => api.post<ApiResponse<SuiviRecord>>('suivi-results', { action: 'add', body });

export const deleteSuivi = (id: number) => api.delete<{ message: string }>(`suivi-results/${id}`, { action: 'delete' });

/** Spec §4, §7: a result is validated by an update with `{status: 1}`. */
export const validateResultat = (id: number) => api.put<ApiResponse<unknown>>(`resultats/${id}`, { action: 'edit', body: { status: 1 } });

/** Reloads the follow-up data, and the reform screens that show results too. */
export function useReloadSuivi() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: SUIVI_KEY }), queryClient.invalidateQueries({ queryKey: ['reformes'] })]);
}
