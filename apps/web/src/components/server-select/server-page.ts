import { SEARCH_MIN_LENGTH } from '@reformes/domain';

/** Rows a searching select asks for at a time. */
export const SERVER_PAGE_SIZE = 20;

/** The page object of a paginated answer (`data` of `{isPaginate: true}`). */
export interface ServerPage<Item> {
  data: Item[];
  current_page: number;
  last_page: number;
  total: number;
}

/** One choice of a searching select. */
export interface ServerOption {
  value: string;
  label: string;
}

/** Reads one page of choices; `search` is already trimmed, and empty when too short to search. */
export type FetchPage<Item> = (search: string, page: number, signal: AbortSignal) => Promise<ServerPage<Item>>;

/** The text the server is asked for: the trimmed input once long enough (spec §5), else nothing: `serverSearchTerm(' a ')` is ''. */
export function serverSearchTerm(text: string): string {
  const trimmed = text.trim();
  return trimmed.length >= SEARCH_MIN_LENGTH ? trimmed : '';
}
