import type { ReformeFilters } from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { API_BASE, type ApiResponse, api } from '../../api/client.ts';
import { type ListPageData, PAGE_SIZE } from '../../components/list-page/list-api.ts';

/** A published reform as anyone may read it: public fields only (architecture §4). */
export interface PublicReforme {
  id: number;
  libref: string;
  typeref: string;
  periodexe: string;
  date_debut: string;
  date_fin: string;
  etat_mor: string | null;
  objectif_glob: string;
  popul_cible: string;
  struct_impl: string;
  cadreinst_mor: string | null;
  montant_prevu: string | null;
  montant_trealise: string | null;
  nature: { id: number; libnature: string };
  couverture: { id: number; lib_couvert: string };
  structure: { id: number; designation: string; sigl: string };
}

export interface PublicMeasure {
  date: string;
  valeur_realise: string;
  taux_realisat: string;
}

export interface PublicResultat {
  id: number;
  libresult: string;
  indicateur: string;
  valeur_cible: string;
  valeurref: string;
  status: number;
  latest: PublicMeasure | null;
  suivi_results: PublicMeasure[];
}

export interface PublicObjectif {
  id: number;
  libobjectif: string;
  /** Validated results over all results, unrounded; null without results. */
  percentage: number | null;
  results: PublicResultat[];
}

export interface PublicReformeDetail extends PublicReforme {
  etat_label: string | null;
  objectifs: PublicObjectif[];
}

export interface PublicFilterOptions {
  structures: { id: number; designation: string; sigl: string }[];
  natures: { id: number; libnature: string }[];
  covers: { id: number; lib_couvert: string }[];
}

const PUBLIC_KEY = ['public-reformes'] as const;

/** `GET reformes/public/suivi-result`: filtered, searched and paged by the server. */
export function publicReformesQuery(page: number, filters: ReformeFilters) {
  return queryOptions({
    queryKey: [...PUBLIC_KEY, 'page', page, filters],
    queryFn: ({ signal }) =>
      api.get<ApiResponse<ListPageData<PublicReforme>>>('reformes/public/suivi-result', {
        action: 'list',
        query: { per_page: PAGE_SIZE, page, ...filters },
        signal,
      }),
    select: (response) => response.data,
    placeholderData: keepPreviousData,
  });
}

/** The filter options, drawn from the published reforms themselves. */
export function publicFiltersQuery() {
  return queryOptions({
    queryKey: [...PUBLIC_KEY, 'filters'],
    queryFn: ({ signal }) => api.get<ApiResponse<PublicFilterOptions>>('reformes/public/filters', { action: 'list', signal }),
    select: (response) => response.data,
    staleTime: 5 * 60_000,
  });
}

export function publicReformeQuery(id: number) {
  return queryOptions({
    queryKey: [...PUBLIC_KEY, 'detail', id],
    queryFn: ({ signal }) => api.get<ApiResponse<PublicReformeDetail>>(`reformes/public/${id}`, { action: 'show', signal }),
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
