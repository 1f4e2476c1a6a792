import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_LENGTH, useListState } from './use-list-state.ts';

const STATUTS = ['brouillon', 'publie'] as const;

/** The hook at `path`, with the address and a navigate of the same router, to go back and forth. */
function renderAt(path: string) {
  const result = renderHook(
    () => ({
      state: useListState({ filters: { statut: STATUTS, structure: (raw: string) => /^\d+$/.test(raw) } }),
      location: useLocation(),
      navigate: useNavigate(),
    }),
    {
      wrapper: ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>,
    },
  );
  const address = () => `${result.result.current.location.pathname}${result.result.current.location.search}`;
  return { result: result.result, address };
}

describe('useListState', () => {
  it('reads page, search and filters from a shared link', () => {
    const { result } = renderAt('/admin/reformes?page=3&search=eau&statut=publie&structure=12');
    expect(result.current.state.page).toBe(3);
    expect(result.current.state.search).toBe('eau');
    expect(result.current.state.filters).toEqual({ statut: 'publie', structure: '12' });
  });

  it('reads a hand-edited address safely: a bad page is page 1, a bad filter is no filter, a long search is cut', () => {
    const long = 'a'.repeat(MAX_SEARCH_LENGTH + 50);
    for (const page of ['abc', '0', '-2', '1.5', '1e99']) {
      const { result } = renderAt(`/liste?page=${page}&statut=inconnu&structure=12;drop&search=${long}`);
      expect(result.current.state.page).toBe(1);
      expect(result.current.state.filters).toEqual({});
      expect(result.current.state.search).toHaveLength(MAX_SEARCH_LENGTH);
    }
  });

  it('pushes a page (back returns to the previous one) and replaces while typing, starting again at page 1', () => {
    const { result, address } = renderAt('/liste');
    act(() => result.current.state.setPage(2));
    act(() => result.current.state.setPage(3));
    expect(address()).toBe('/liste?page=3');
    act(() => result.current.navigate(-1));
    expect(result.current.state.page).toBe(2);

    act(() => result.current.state.setSearch('e'));
    act(() => result.current.state.setSearch('ea'));
    expect(address()).toBe('/liste?search=ea');
    expect(result.current.state.page).toBe(1);
    // Typing replaced the entry of page 2: back leaves for the entry before it, page 1 without search.
    act(() => result.current.navigate(-1));
    expect(address()).toBe('/liste');
  });

  it('starts again at page 1 on a filter change, and drops an emptied filter from the address', () => {
    const { result, address } = renderAt('/liste?page=4&search=eau');
    act(() => result.current.state.setFilter('statut', 'publie'));
    expect(address()).toBe('/liste?search=eau&statut=publie');
    act(() => result.current.state.setPage(2));
    act(() => result.current.state.setFilter('statut', undefined));
    expect(address()).toBe('/liste?search=eau');
    expect(result.current.state.filters).toEqual({});
  });

  it('sets several filters in one change of the address (each read through its rule)', () => {
    const { result, address } = renderAt('/liste?page=3');
    act(() => result.current.state.setFilters({ statut: 'brouillon', structure: '7' }));
    expect(address()).toBe('/liste?statut=brouillon&structure=7');
    expect(result.current.state.filters).toEqual({ statut: 'brouillon', structure: '7' });
    act(() => result.current.state.setFilters({ statut: undefined, structure: 'x' }));
    expect(result.current.state.filters).toEqual({});
    act(() => result.current.state.setSearch('eau'));
    act(() => result.current.state.setFilter('statut', 'publie'));
    act(() => result.current.state.setPage(2));
    act(() => result.current.state.reset());
    expect(address()).toBe('/liste');
  });

  it('clamps a page past the last one to the last one, fixing the address, and leaves a page in range alone', () => {
    const { result, address } = renderAt('/liste?page=9&search=eau');
    act(() => result.current.state.clampTo(4));
    expect(result.current.state.page).toBe(4);
    expect(address()).toBe('/liste?page=4&search=eau');
    act(() => result.current.state.clampTo(6));
    expect(address()).toBe('/liste?page=4&search=eau');
    act(() => result.current.state.clampTo(0));
    expect(result.current.state.page).toBe(1);
    expect(address()).toBe('/liste?search=eau');
  });
});
