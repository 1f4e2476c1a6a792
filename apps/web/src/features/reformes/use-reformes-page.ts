import { useDebouncedValue } from '@mantine/hooks';
import type { ReformeFilters } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { reformesPageQuery } from './reformes-api.ts';

/** Typing pauses this long before the server is asked. */
const SEARCH_DEBOUNCE_MS = 300;
/** Spec §5: a search needs at least 2 characters once trimmed. */
const MIN_SEARCH = 2;

type PageQuery = typeof reformesPageQuery;

/**
 * A page of reforms the server filtered, searched and paged (so that it stays fast with 100 000
 * of them): the page, the filters, the search text, and what the table and pagination show.
 */
export function useReformesPage(pageQuery: PageQuery) {
  const [page, setPage] = useState(1);
  const [filters, setFiltersState] = useState<ReformeFilters>({});
  const [search, setSearchState] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const applied: ReformeFilters = debounced.length >= MIN_SEARCH ? { ...filters, search: debounced } : filters;
  const query = useQuery(pageQuery(page, applied));

  // A delete may empty the last page: go back to the new last one.
  const lastPage = query.data?.last_page ?? 1;
  useEffect(() => {
    if (query.data && page > Math.max(1, query.data.last_page)) setPage(Math.max(1, query.data.last_page));
  }, [query.data, page]);

  return {
    rows: query.data?.data ?? [],
    total: query.data?.total ?? 0,
    isLoading: query.isPending || query.isFetching,
    error: query.error,
    pagination: { page, total: lastPage, onChange: setPage },
    filters,
    setFilters: (next: ReformeFilters) => {
      setFiltersState(next);
      setPage(1);
    },
    search,
    setSearch: (text: string) => {
      setSearchState(text);
      setPage(1);
    },
    /** Spec §5: reset restores the list from page 1. */
    reset: () => {
      setFiltersState({});
      setSearchState('');
      setPage(1);
    },
  };
}
