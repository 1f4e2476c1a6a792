import { STRUCTURES_ROUTES } from '@reformes/domain';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { allRowsQuery } from './list-api.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('allRowsQuery', () => {
  it('reads a whole list that comes plain', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ message: 'ok', isPaginate: false, data: [{ id: 1 }, { id: 2 }] })),
    );
    expect(await new QueryClient().fetchQuery(allRowsQuery(STRUCTURES_ROUTES))).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('reads every page when the server pages a list too long to come whole, so no choice is left out', async () => {
    const rows = Array.from({ length: 2500 }, (_, index) => ({ id: index + 1 }));
    const pages: Array<string | null> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const page = Number(new URL(String(input), 'http://localhost').searchParams.get('page') ?? 1);
        pages.push(String(page));
        return Response.json({
          message: 'ok',
          isPaginate: true,
          data: { data: rows.slice((page - 1) * 1000, page * 1000), current_page: page, per_page: 1000, total: 2500, last_page: 3 },
        });
      }),
    );
    const all = await new QueryClient().fetchQuery(allRowsQuery(STRUCTURES_ROUTES));
    expect(all).toHaveLength(2500);
    expect(all.at(-1)).toEqual({ id: 2500 });
    expect(pages).toEqual(['1', '2', '3']);
  });
});
