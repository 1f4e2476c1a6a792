import { useDebouncedValue } from '@mantine/hooks';
import { REFORME_TYPES, type ReformeFilters, SEARCH_DEBOUNCE_MS, SEARCH_MIN_LENGTH } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { publicReformesQuery } from './public-api.ts';

export type FilterKey = 'structure_id' | 'nature_id' | 'couverture_id' | 'typeref';
const FILTER_KEYS: FilterKey[] = ['structure_id', 'nature_id', 'couverture_id', 'typeref'];

/** The filters written in the address: `?structure_id=3&typeref=SECTORIELLE` (the search is handled apart). */
export function readFilters(params: URLSearchParams): ReformeFilters {
  const filters: ReformeFilters = {};
  for (const key of ['structure_id', 'nature_id', 'couverture_id'] as const) {
    const id = Number(params.get(key));
    if (Number.isInteger(id) && id > 0) filters[key] = id;
  }
  const typeref = params.get('typeref');
  if (typeref && (REFORME_TYPES as readonly string[]).includes(typeref)) filters.typeref = typeref as ReformeFilters['typeref'];
  return filters;
}

/**
 * The public list's state lives in the address (`?typeref=SECTORIELLE&search=santé&page=2`), so that a
 * visitor can share or bookmark a filtered list and come back to it from a reform's page; the server
 * filters, searches and pages. The address changes only from event handlers: a change fired later by a
 * timer could land on the page the visitor has meanwhile opened.
 */
export function usePublicList() {
  const [params, setParams] = useSearchParams();
  const [search, setSearchText] = useState(params.get('search') ?? '');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const filters: ReformeFilters = { ...readFilters(params), ...(debounced.length >= SEARCH_MIN_LENGTH ? { search: debounced } : {}) };
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = useQuery(publicReformesQuery(page, filters));

  const lastPage = Math.max(1, query.data?.last_page ?? 1);
  const update = (change: (next: URLSearchParams) => void, replace = false) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        change(next);
        return next;
      },
      { replace },
    );

  return {
    rows: query.data?.data ?? [],
    total: query.data?.total ?? 0,
    firstIndex: ((query.data?.current_page ?? page) - 1) * (query.data?.per_page ?? 10),
    isLoading: query.isPending || query.isFetching,
    hasData: query.data !== undefined,
    error: query.error,
    pagination: {
      page: Math.min(page, lastPage),
      total: lastPage,
      onChange: (target: number) => update((next) => (target > 1 ? next.set('page', String(target)) : next.delete('page'))),
    },
    filters,
    setFilter: (key: FilterKey, value: string | undefined) =>
      update((next) => {
        if (value) next.set(key, value);
        else next.delete(key);
        next.delete('page');
      }),
    search,
    /** The text is kept in the address as typed; the server is asked once the typing pauses. */
    setSearch: (text: string) => {
      setSearchText(text);
      update((next) => {
        if (text.trim()) next.set('search', text.trim());
        else next.delete('search');
        next.delete('page');
      }, true);
    },
    /** Spec §5: reset restores the whole list from page 1. */
    reset: () => {
      setSearchText('');
      update((next) => {
        for (const key of [...FILTER_KEYS, 'search', 'page']) next.delete(key);
      });
    },
  };
}
