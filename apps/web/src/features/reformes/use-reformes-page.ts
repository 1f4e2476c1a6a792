import { type ReformeFilters, reformeFiltersSchema } from '@reformes/domain';
import { useSearchedPages } from '../../components/list-page/use-list-controller.ts';
import { useListState } from '../../components/use-list-state.ts';
import type { reformesPageQuery } from './reformes-api.ts';

type PageQuery = typeof reformesPageQuery;

type FilterKey = Exclude<keyof ReformeFilters, 'search'>;
const FILTER_KEYS: FilterKey[] = ['structure_id', 'nature_id', 'couverture_id', 'typeref'];
/** Each filter of the address is read through the domain's rule for it: a hand-edited value is no filter. */
const FILTER_RULES = Object.fromEntries(
  FILTER_KEYS.map((key) => [key, (raw: string) => reformeFiltersSchema.shape[key].safeParse(raw).success]),
) as Record<FilterKey, (raw: string) => boolean>;

/**
 * A page of reforms the server filtered, searched and paged (so that it stays fast with 100 000
 * of them): the page, the filters, the search text, and what the table and pagination show.
 * Page, search and filters live in the address (useListState).
 */
export function useReformesPage(pageQuery: PageQuery) {
  const state = useListState({ filters: FILTER_RULES });
  const filters: ReformeFilters = reformeFiltersSchema.parse(state.filters);
  const list = useSearchedPages((page, search) => pageQuery(page, search ? { ...filters, search } : filters));

  return {
    rows: list.rows,
    total: list.total,
    isLoading: list.isLoading,
    error: list.error,
    pagination: list.pagination,
    filters,
    setFilters: (next: ReformeFilters) =>
      state.setFilters(Object.fromEntries(FILTER_KEYS.map((key) => [key, next[key] === undefined ? undefined : String(next[key])]))),
    search: list.search,
    setSearch: list.setSearch,
    /** Spec §5: reset restores the list from page 1, without filters or search. */
    reset: state.reset,
  };
}
