import { MESSAGES } from '@reformes/domain';

/** `{message, data}`: every success answer. */
export function ok<T>(data: T, message: string = MESSAGES.success) {
  return { message, data };
}

/** A list asked for without `per_page`: the whole array. */
export function plainList<T>(rows: T[], message: string = MESSAGES.listed) {
  return { message, isPaginate: false as const, data: rows };
}

export interface Page<T> {
  data: T[];
  current_page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export function pagedList<T>(page: Page<T>, message: string = MESSAGES.listed) {
  return { message, isPaginate: true as const, data: page };
}

/** The envelope of `listOrPage`'s answer: a plain list or a page. */
export function listEnvelope<T>(result: T[] | Page<T>, message: string = MESSAGES.listed) {
  return Array.isArray(result) ? plainList(result, message) : pagedList(result, message);
}
