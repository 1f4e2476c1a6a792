import { useDebouncedValue } from '@mantine/hooks';
import {
  type Action,
  MESSAGES,
  matchesSearchText,
  needsRemoteSearch,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MIN_LENGTH,
  TITLES,
} from '@reformes/domain';
import { type QueryKey, type UseQueryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import {
  allRowsQuery,
  createRow,
  deleteRow,
  type ListPageData,
  PAGE_SIZE,
  pageQuery,
  resourceKey,
  searchQuery,
  setRowState,
  updateRow,
} from '../../api/list-api.ts';
import { hasRight } from '../../session/use-can.ts';
import { useSession } from '../../session/use-session.ts';
import { notifyRunning, notifySuccess } from '../notify.tsx';
import { useListState } from '../use-list-state.ts';
import { type ListConfig, type ListRow, searchValuesOf } from './list-config.ts';

/**
 * The pages of a list that the server searches (reforms, backups), for the shared search box:
 * the search text is sent once typing pauses and it has at least 2 characters (spec §5); a new
 * search starts at page 1, and emptying the box shows the unsearched list at once.
 * `queryOf(page, search)` gives the query of one page, `search` being '' for the whole list.
 */
export function useSearchedPages<Row, Raw, Key extends QueryKey>(
  queryOf: (page: number, search: string) => UseQueryOptions<Raw, Error, ListPageData<Row>, Key>,
) {
  // Page and search live in the address (useListState): another search starts again at page 1.
  const { page, setPage, search, setSearch, clampTo } = useListState();
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const term = search.trim().length >= SEARCH_MIN_LENGTH && debounced.length >= SEARCH_MIN_LENGTH ? debounced : '';

  const query = useQuery(queryOf(page, term));
  const lastPage = Math.max(1, query.data?.last_page ?? 1);
  // A delete may empty the last page, an old link may name a page past it: go back to the last one.
  useEffect(() => {
    if (query.data) clampTo(lastPage);
  }, [query.data, clampTo, lastPage]);

  return {
    rows: query.data?.data ?? [],
    total: query.data?.total ?? 0,
    firstPosition: (page - 1) * PAGE_SIZE + 1,
    isLoading: query.isPending || query.isFetching,
    error: query.error,
    /** Changes whenever the rows are reloaded: a selection made before does not survive it. */
    loadedAt: `${term}:${page}:${query.dataUpdatedAt}`,
    page,
    setPage,
    pagination: { page, total: lastPage, onChange: setPage },
    search,
    setSearch,
    /** Spec §5: reset empties the box and restores the list from page 1. */
    resetSearch: () => setSearch(''),
  };
}

/**
 * Everything a list screen does, whatever the entity (react-admin's list controller):
 * the page of rows, the search of spec §5, the selection, the rights and the mutations.
 */
export function useListController<Row extends ListRow>(config: ListConfig<Row>) {
  const { routes } = config;
  const queryClient = useQueryClient();
  const { features } = useSession();

  // Page and search live in the address (useListState): back/forward and a shared link restore them.
  const { page, setPage, search, setSearch: setSearchText, clampTo } = useListState();
  const [debouncedSearch] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [remotePage, setRemotePage] = useState(1);
  const [selection, setSelection] = useState<{ id: number; stamp: string } | null>(null);

  const isWholeList = config.wholeList === true;
  const pageRows = useQuery({ ...pageQuery(routes, page), enabled: !isWholeList });
  const wholeRows = useQuery({ ...allRowsQuery(routes), enabled: isWholeList });
  const listed = isWholeList ? wholeRows : pageRows;
  const loadedRows = (isWholeList ? wholeRows.data : pageRows.data?.data) ?? [];

  const localRows = useMemo(
    () => loadedRows.filter((row) => matchesSearchText(searchValuesOf(config, row), search)),
    [loadedRows, config, search],
  );
  const lastPage = isWholeList ? Math.max(1, Math.ceil(localRows.length / PAGE_SIZE)) : (pageRows.data?.last_page ?? 1);

  // A delete may empty the last page, an old link may name a page past it: go back to the last one.
  useEffect(() => {
    if (isWholeList ? wholeRows.data : pageRows.data) clampTo(lastPage);
  }, [isWholeList, wholeRows.data, pageRows.data, clampTo, lastPage]);

  // A whole list is searched here entirely: the server is never asked.
  const isRemote = !isWholeList && needsRemoteSearch(search, localRows.length);
  const remoteTerm = isRemote && debouncedSearch === search ? search.trim() : '';
  const remoteRows = useQuery({ ...searchQuery(routes, remoteTerm, remotePage), enabled: remoteTerm !== '' });
  const remoteLastPage = Math.max(1, remoteRows.data?.last_page ?? 1);
  useEffect(() => {
    if (remoteRows.data && remotePage > remoteLastPage) setRemotePage(remoteLastPage);
  }, [remoteRows.data, remotePage, remoteLastPage]);

  let rows: Row[];
  let count: number;
  let pagination: { page: number; total: number; onChange: (page: number) => void };
  let firstPosition: number;
  if (isRemote) {
    // The server's results replace the list, paged by the server with their true total.
    const found = remoteTerm ? remoteRows.data : undefined;
    rows = found?.data ?? [];
    count = found?.total ?? 0;
    pagination = { page: remotePage, total: found ? remoteLastPage : 1, onChange: setRemotePage };
    firstPosition = (remotePage - 1) * PAGE_SIZE + 1;
  } else if (isWholeList) {
    const current = Math.min(page, lastPage);
    rows = localRows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
    count = localRows.length;
    pagination = { page: current, total: lastPage, onChange: setPage };
    firstPosition = (current - 1) * PAGE_SIZE + 1;
  } else {
    rows = localRows;
    count = search.trim() ? localRows.length : (pageRows.data?.total ?? 0);
    pagination = { page, total: lastPage, onChange: setPage };
    firstPosition = (page - 1) * PAGE_SIZE + 1;
  }

  // Spec §2.8: the selection does not survive a reload, a page change or a new search.
  const stamp = isRemote
    ? `search:${remoteTerm}:${remoteRows.dataUpdatedAt}:${pagination.page}`
    : `page:${pagination.page}:${listed.dataUpdatedAt}`;
  const selected = selection?.stamp === stamp ? rows.find((row) => row.id === selection.id) : undefined;

  const select = (row: Row) => setSelection({ id: row.id, stamp });
  const clearSelection = () => setSelection(null);

  // A new search starts at page 1 (useListState), its server results too.
  const setSearch = (text: string) => {
    setSearchText(text);
    setRemotePage(1);
  };
  /** Spec §5: reset restores the paginated list from page 1. */
  const resetSearch = () => setSearch('');

  const can = (action: Action) => hasRight(features, config.feature, action);

  const reload = () => queryClient.invalidateQueries({ queryKey: resourceKey(routes) });

  const save = useMutation({
    mutationFn: ({ id, values }: { id?: number; values: unknown }) =>
      id === undefined ? createRow(routes, values) : updateRow(routes, id, values),
    onSuccess: (response) => {
      notifySuccess(response.message, config.errorTitle);
      return reload();
    },
    meta: { errorTitle: config.errorTitle },
  });

  const remove = useMutation({
    mutationFn: (row: Row) => deleteRow(routes, row.id),
    onSuccess: (response) => {
      notifySuccess(response.message, config.errorTitle);
      return reload();
    },
    meta: { errorTitle: config.errorTitle },
  });

  const changeState = useMutation({
    mutationFn: async ({ row, isActive }: { row: Row; isActive: boolean }) => {
      const done = notifyRunning(MESSAGES.operationRunning);
      try {
        return await setRowState(routes, row.id, isActive);
      } finally {
        done();
      }
    },
    onSuccess: (response) => {
      notifySuccess(response.message, config.errorTitle);
      return reload();
    },
    meta: { errorTitle: config.statusErrorTitle ?? TITLES.users },
  });

  return {
    config,
    rows,
    count,
    firstPosition,
    pagination,
    isLoading: listed.isPending || (isRemote && (remoteTerm === '' || remoteRows.isFetching)),
    error: listed.error,
    search,
    setSearch,
    resetSearch,
    selected,
    select,
    clearSelection,
    can,
    save,
    remove,
    changeState,
  };
}

export type ListController<Row extends ListRow> = ReturnType<typeof useListController<Row>>;
