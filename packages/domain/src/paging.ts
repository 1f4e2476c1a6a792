import { MAX_PER_PAGE, searchSchema } from './reference.ts';
import { ID_MAX } from './text-limits.ts';
import { z } from './zod-locale.ts';

// Beyond an id's range no page holds a row; a larger number would overflow the database's OFFSET.
const pageNumber = z.coerce.number().int().min(1).max(ID_MAX);
const perPage = z.coerce.number().int().min(1).max(MAX_PER_PAGE).optional();

/** `?per_page=&page=`: both optional; without `per_page` a list comes whole (up to WHOLE_LIST_MAX rows). */
export const pageQuerySchema = z.object({ per_page: perPage, page: pageNumber.default(1) });
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** `POST {resource}-search` body: `{search}`, and the page either here or in the query string. */
export const searchBodySchema = searchSchema.extend({ per_page: perPage, page: pageNumber.optional() });
export type SearchBody = z.infer<typeof searchBodySchema>;
