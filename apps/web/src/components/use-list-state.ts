import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

/** What a filter of the address may hold: its allowed values, or a test of the raw text. */
export type FilterRule = readonly string[] | ((raw: string) => boolean);

export interface ListStateOptions<Key extends string> {
  /** The filters the address may carry, each with its rule: a value that breaks it is read as no filter. */
  filters?: Record<Key, FilterRule>;
}

/** A search longer than this in a hand-edited address is cut (no field of the back office takes more). */
export const MAX_SEARCH_LENGTH = 200;

/** `?page=` as a page number: a positive whole number, else the first page. */
export function pageOf(raw: string | null): number {
  const page = Number(raw);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

const allowed = (rule: FilterRule, raw: string) => (typeof rule === 'function' ? rule(raw) : rule.includes(raw));

/**
 * The one way a back-office list holds its page: page, search and filters live in the address (`?page=2&search=eau&
 * statut=publie`), so back/forward and a shared link restore them. Values are read through their rules, so a
 * hand-edited address cannot break a screen (`?page=abc` is page 1, an unknown filter value is no filter). A new
 * search or filter starts again at page 1. Typing replaces the history entry (one entry per search, not per key);
 * paging pushes one, so "back" returns to the previous page. `clampTo(pageCount)` sends a page past the last one to
 * the last one, fixing the address (a deleted last row, or an old link).
 */
export function useListState<Key extends string = never>(options: ListStateOptions<Key> = {}) {
  const [params, setParams] = useSearchParams();
  const rules = options.filters;

  const page = pageOf(params.get('page'));
  const addressSearch = (params.get('search') ?? '').slice(0, MAX_SEARCH_LENGTH);
  // The box shows what was typed, not the address: the address follows a keystroke a moment later, and a box fed back
  // from it loses the keys typed in between. The texts written and not yet seen in the address are kept; any other
  // value of the address (back/forward, a link, a reset) replaces the box's text.
  const [search, setTyped] = useState(addressSearch);
  const written = useRef<string[]>([]);
  useEffect(() => {
    const landed = written.current.indexOf(addressSearch);
    if (landed >= 0) written.current = written.current.slice(landed + 1);
    else {
      written.current = [];
      setTyped(addressSearch);
    }
  }, [addressSearch]);
  const filterText = rules
    ? Object.keys(rules)
        .map((key) => `${key}=${params.get(key) ?? ''}`)
        .join('&')
    : '';
  // Read again only when the filters' part of the address changes (filterText), so the object is stable.
  const filters = useMemo(() => {
    const read: Partial<Record<Key, string>> = {};
    for (const key of Object.keys(rules ?? {}) as Key[]) {
      const raw = params.get(key);
      if (raw !== null && rules && allowed(rules[key], raw)) read[key] = raw;
    }
    return read;
  }, [filterText]);

  const change = useCallback(
    (changes: Record<string, string | undefined>, replace: boolean) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(key);
            else next.set(key, value);
          }
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  const setPage = useCallback((next: number) => change({ page: next > 1 ? String(next) : undefined }, false), [change]);
  const setSearch = useCallback(
    (text: string) => {
      setTyped(text);
      written.current.push(text);
      change({ search: text, page: undefined }, true);
    },
    [change],
  );
  const setFilter = useCallback((key: Key, value: string | undefined) => change({ [key]: value, page: undefined }, true), [change]);
  /** Several filters at once (a filter bar's whole value): one change of the address, page 1. */
  const setFilters = useCallback((next: Partial<Record<Key, string | undefined>>) => change({ ...next, page: undefined }, true), [change]);
  /** Back to the whole list: no search, no filter, page 1, in one change of the address. */
  const reset = useCallback(() => {
    setTyped('');
    written.current = [];
    change(Object.fromEntries(['page', 'search', ...Object.keys(rules ?? {})].map((key) => [key, undefined])), true);
  }, [change, rules]);
  const clampTo = useCallback(
    (pageCount: number) => {
      const last = Math.max(1, Math.floor(pageCount) || 1);
      if (page > last) change({ page: last > 1 ? String(last) : undefined }, true);
    },
    [change, page],
  );

  return { page, setPage, search, setSearch, filters, setFilter, setFilters, reset, clampTo };
}

export type ListState<Key extends string = never> = ReturnType<typeof useListState<Key>>;
