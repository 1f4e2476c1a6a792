import type { ReformeFilters } from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type ApiResponse, api } from '../../api/client.ts';
import { type ListPageData, PAGE_SIZE } from '../../components/list-page/list-api.ts';

export interface ReformeFileRef {
  id: number;
  name_file: string;
}

/** A reform as the lists return it (spec §3 "Reform", architecture §4 stage). */
export interface ReformeRow {
  id: number;
  libref: string;
  typeref: string;
  nature_id: number;
  objectif_glob: string;
  popul_cible: string;
  couverture_id: number;
  struct_impl: string;
  date_debut: string;
  date_fin: string;
  periodexe: string;
  date_enreg: string;
  cadreinst_mor: string | null;
  etat_mor: string | null;
  montant_prevu: string | null;
  montant_trealise: string | null;
  difficult: string | null;
  solution: string | null;
  perspective: string | null;
  isPublished: boolean;
  is_active: boolean;
  stage: number;
  structure_id: number;
  nature: { id: number; libnature: string } | null;
  couverture: { id: number; lib_couvert: string } | null;
  structure: { id: number; designation: string; sigl: string } | null;
  files: ReformeFileRef[];
}

export interface SuiviRow {
  id: number;
  taux_realisat: string;
  valeur_realise: string;
  date: string;
}

export interface ResultatRow {
  id: number;
  objectif_id: number;
  libresult: string;
  indicateur: string;
  valeur_cible: string;
  valeurref: string;
  status: number;
  /** Absent on follow-up answers, which carry active results only. */
  is_active?: boolean;
  suivi_results?: SuiviRow[];
}

export interface ObjectifRow {
  id: number;
  libobjectif: string;
  reforme_id: number;
  is_active: boolean;
  reforme?: { id: number; libref: string } | null;
  results?: ResultatRow[];
}

export interface ReformeFile extends ReformeFileRef {
  original_name?: string;
  size?: number;
}

export type HistoryEvent = 'creation' | 'transmission' | 'retour' | 'publication' | 'depublication';

export interface HistoryRow {
  id?: number;
  event: HistoryEvent;
  sens: number;
  from_stage: number | null;
  to_stage: number | null;
  instruction: string | null;
  created_at: string;
  user: string | null;
}

/** `GET reformes/{id}`: the row plus objectives with results, attachments, history and the return banner. */
export interface ReformeDetail extends Omit<ReformeRow, 'files'> {
  objectifs: ObjectifRow[];
  files: ReformeFile[];
  history: HistoryRow[];
  affectation: { instruction: string | null } | null;
}

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
