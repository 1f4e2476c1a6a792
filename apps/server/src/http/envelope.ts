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

/** `DELETE …`: once the row is gone, `{message: "Suppression effectuée avec succès"}`. */
export async function deleted(removal: Promise<unknown>) {
  await removal;
  return { message: MESSAGES.deleted };
}

/** `…/state/:state`: the row turned on ('1') or off ('0'), answered with the matching message. */
export async function toggled<T>(state: string, change: (isActive: boolean) => Promise<T>) {
  const isActive = state === '1';
  return ok(await change(isActive), isActive ? MESSAGES.activated : MESSAGES.deactivated);
}
