import { OBJECTIFS_ROUTES, SUIVI_ROUTES, type SuiviRecord, type SuiviReforme } from '@reformes/domain';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { pageOf } from '../../api/list-api.ts';
import { type FetchPage, SERVER_PAGE_SIZE } from '../../components/server-select/server-page.ts';

/** A follow-up record (spec §3): rate and value as the API's numeric strings, date yyyy-mm-dd. */
export type { SuiviRecord, SuiviReforme };
/** An objective as the follow-up screens read it: its active results and their records. */
export type SuiviObjectif = SuiviReforme['objectifs'][number];
/** An expected result with its follow-up records, oldest first; `status` 0 pending, 1 validated (spec §4). */
export type SuiviResultat = SuiviObjectif['results'][number];

/** Every query of this feature starts with this key: one invalidation reloads both screens and their pickers. */
export const SUIVI_KEY = ['suivi'] as const;

/** Start of the key of the reform picker's pages (`ServerSelect` adds the search). */
export const SUIVI_REFORMES_KEY = [...SUIVI_KEY, 'reformes'] as const;

/**
 * `GET reformes/users/get-suivi-result?per_page&page&search`: one page of the active reforms in the
 * user's scope, most recent first — what the reform picker offers.
 */
export const fetchSuiviReformesPage: FetchPage<SuiviReforme> = async (search, page, signal) => {
  const response = await call(SUIVI_ROUTES.reformes, { query: { per_page: SERVER_PAGE_SIZE, page, search: search || undefined }, signal });
  return pageOf(response);
};

/** How the picker names a reform. */
export const suiviReformeOption = (reforme: Pick<SuiviReforme, 'id' | 'libref'>) => ({ value: String(reforme.id), label: reforme.libref });

/**
 * `GET reformes/users/get-suivi-result?reforme_id=`: the chosen reform with its objectives, results and
 * follow-up records, nested; null when it is not (or no longer) in the user's scope.
 */
export function suiviReformeQuery(reformeId: number | null) {
  return queryOptions({
    queryKey: [...SUIVI_KEY, 'reforme', reformeId],
    queryFn: ({ signal }) => call(SUIVI_ROUTES.reformes, { query: { reforme_id: reformeId ?? undefined }, signal }),
    select: (response): SuiviReforme | null => pageOf(response).data[0] ?? null,
    enabled: reformeId !== null,
  });
}

/** What `POST suivi-results` takes once the form is parsed. */
export interface SuiviPayload {
  result_id: number;
  taux_realisat: number;
  valeur_realise: number;
  date: string;
}

export const createSuivi = (body: SuiviPayload) => call(SUIVI_ROUTES.create, { body });

export const deleteSuivi = (id: number) => call(SUIVI_ROUTES.remove, { params: { id } });

/** Spec §4, §7: a result is validated by an update with `{status: 1}`. */
export const validateResultat = (id: number) => call(OBJECTIFS_ROUTES.updateResultat, { params: { id }, body: { status: 1 } });

/** Reloads the follow-up data, and the reform screens that show results too. */
export function useReloadSuivi() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: SUIVI_KEY }), queryClient.invalidateQueries({ queryKey: ['reformes'] })]);
}
