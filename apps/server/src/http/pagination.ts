import { type PageQuery, type SearchBody, WHOLE_LIST_MAX } from '@reformes/domain';
import { pageOf } from '../db/lists/index.ts';
import type { Page } from './envelope.ts';

export { type PageQuery, pageQuerySchema, type SearchBody, searchBodySchema } from '@reformes/domain';
/** The list envelope's page, written once with the paging engine (db/lists), for the lists that count by themselves. */
export { lastPageOf, pageOf } from '../db/lists/index.ts';

/** The page a search asks for: from the query string when it names `per_page`, otherwise from the body. */
export function searchPageOf(query: PageQuery, body: SearchBody): PageQuery {
  if (query.per_page) return query;
  return { per_page: body.per_page, page: body.page ?? query.page };
}

/**
 * A list asked for with `per_page` is one page with its exact total. Without it, the whole list while it
 * holds at most WHOLE_LIST_MAX rows, and beyond that pages of WHOLE_LIST_MAX with their total: a client is
 * told there is more, never handed a silently cut list.
 */
export async function listOrPage<T>(
  { per_page, page }: PageQuery,
  rows: (limit: number, offset: number, total?: number) => Promise<T[]>,
  total: () => Promise<number>,
): Promise<T[] | Page<T>> {
  let perPage = per_page;
  if (!perPage) {
    if (page === 1) {
      const whole = await rows(WHOLE_LIST_MAX + 1, 0);
      if (whole.length <= WHOLE_LIST_MAX) return whole;
    }
    perPage = WHOLE_LIST_MAX;
  }
  // The total first: a page past the middle may then be read from the other end (see reformeIdPage).
  const count = await total();
  return pageOf(await rows(perPage, (page - 1) * perPage, count), count, page, perPage);
}

/** Applies an optional limit and offset to a dynamic Drizzle query. */
export function sliced<Q extends { limit(n: number): unknown; offset(n: number): unknown }>(query: Q, limit?: number, offset?: number): Q {
  if (limit !== undefined) query.limit(limit);
  if (offset !== undefined) query.offset(offset);
  return query;
}
