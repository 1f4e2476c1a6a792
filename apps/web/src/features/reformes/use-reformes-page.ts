import type { ReformeFilters } from '@reformes/domain';
import { useState } from 'react';
import { useSearchedPages } from '../../components/list-page/use-list-controller.ts';
import type { reformesPageQuery } from './reformes-api.ts';

type PageQuery = typeof reformesPageQuery;

/**
 * A page of reforms the server filtered, searched and paged (so that it stays fast with 100 000
 * of them): the page, the filters, the search text, and what the table and pagination show.
 */
export function useReformesPage(pageQuery: PageQuery) {
  const [filters, setFiltersState] = useState<ReformeFilters>({});
  const list = useSearchedPages((page, search) => pageQuery(page, search ? { ...filters, search } : filters));

  return {
    rows: list.rows,
    total: list.total,
    isLoading: list.isLoading,
    error: list.error,
    pagination: list.pagination,
    filters,
    setFilters: (next: ReformeFilters) => {
      setFiltersState(next);
      list.setPage(1);
    },
    search: list.search,
    setSearch: list.setSearch,
    /** Spec §5: reset restores the list from page 1, without filters or search. */
    reset: () => {
      setFiltersState({});
      list.resetSearch();
    },
  };
}
