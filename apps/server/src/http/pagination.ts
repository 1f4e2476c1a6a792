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
