import { z } from 'zod';

export const PAGE_SIZE = 10;

/** `?per_page=&page=`: both optional; a list without `per_page` is returned whole. */
export const pageQuerySchema = z.object({
  per_page: z.coerce.number().int().min(1).max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export function lastPageOf(total: number, perPage: number): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** A page of the list envelope: `pageOf(rows, total, 2, 10)` gives `{data, current_page: 2, per_page: 10, total, last_page}`. */
export function pageOf<T>(data: T[], total: number, page: number, perPage: number) {
  return { data, current_page: page, per_page: perPage, total, last_page: lastPageOf(total, perPage) };
}

/** Applies an optional limit and offset to a dynamic Drizzle query. */
export function sliced<Q extends { limit(n: number): unknown; offset(n: number): unknown }>(query: Q, limit?: number, offset?: number): Q {
  if (limit !== undefined) query.limit(limit);
  if (offset !== undefined) query.offset(offset);
  return query;
}
