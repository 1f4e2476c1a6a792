import type { PageOf, RouteSpec } from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { type CallInput, call } from './call.ts';

/** Spec §9: every list shows 10 rows a page, from page 1. */
export const PAGE_SIZE = 10;

/** The page object of a paginated list (architecture §3), as shapes/envelope.ts declares it. */
export type ListPageData<Row> = PageOf<Row>;

/** A list answer: the whole list, or one page of it. */
export type ListAnswer<Row> = { message: string; data: Row[] | ListPageData<Row> };

/** A route whose answer (on the wire) is an `A`. */
export type RouteAnswering<A> = RouteSpec & { answer: z.ZodType<unknown, A> };

/**
 * The routes a generic list calls, as the domain's tables name them (`SECTORS_ROUTES`, `USERS_ROUTES`...): a table
 * whose list does not answer `Row`s is a type error where the list is configured.
 */
export interface ListRoutes<Row = unknown> {
  list: RouteAnswering<ListAnswer<Row>>;
  /** `POST {resource}-search`, for a list paged by the server. */
  search?: RouteAnswering<ListAnswer<Row>>;
  create?: RouteAnswering<{ message: string; data: unknown }>;
  update?: RouteAnswering<{ message: string; data: unknown }>;
  remove?: RouteAnswering<{ message: string }>;
  setState?: RouteAnswering<{ message: string; data: unknown }>;
}

/** A resource's list route alone: what a select's choices need. */
export type ListSource<Row = unknown> = Pick<ListRoutes<Row>, 'list'>;

/** The routes here are known by their answers only: their inputs are those every such route of the tables takes. */
function send<A>(spec: RouteAnswering<A> | undefined, input: CallInput<RouteSpec> | Record<string, unknown>): Promise<A> {
  if (!spec) throw new Error('route absente de la table de la liste');
  return call(spec, input as CallInput<RouteSpec>) as Promise<A>;
}

/** Every query of a resource starts with its path (`sectors`), so one invalidation reloads them all. */
export const resourceKey = (routes: ListSource) => [routes.list.path.slice(1)] as const;

/** The page of a list answer asked by pages (`per_page`); a whole list, should the server send one, as its only page. */
export function pageOf<Row>(answer: { data: Row[] | ListPageData<Row> }): ListPageData<Row> {
  if (!Array.isArray(answer.data)) return answer.data;
  const total = answer.data.length;
  return { data: answer.data, current_page: 1, per_page: total, total, last_page: 1 };
}

/** The rows of a list answer, whole or one page. */
export function rowsOf<Row>(answer: { data: Row[] | ListPageData<Row> }): Row[] {
  return Array.isArray(answer.data) ? answer.data : answer.data.data;
}

/** A page of `GET {resource}?per_page=10&page=N`, searched by the server when `search` is given. */
export function pageQuery<Row>(routes: ListSource<Row>, page: number, search = '') {
  return queryOptions({
    queryKey: [...resourceKey(routes), 'page', page, search],
    queryFn: ({ signal }) => send(routes.list, { query: { per_page: PAGE_SIZE, page, search: search || undefined }, signal }),
    select: pageOf<Row>,
    placeholderData: keepPreviousData,
  });
}

/**
 * The whole list (the choices of a select of a reference list). Beyond the server's whole-list size the
 * answer comes in pages with their total: every page is read, so no choice is left out.
 */
export function allRowsQuery<Row>(routes: ListSource<Row>) {
  return queryOptions({
    queryKey: [...resourceKey(routes), 'all'],
    queryFn: async ({ signal }) => {
      const first = await send(routes.list, { signal });
      if (Array.isArray(first.data)) return first.data;
      const rows = [...first.data.data];
      for (let page = 2; page <= first.data.last_page; page++) {
        rows.push(...rowsOf(await send(routes.list, { query: { page }, signal })));
      }
      return rows;
    },
  });
}

/** `POST {resource}-search?per_page=10&page=N {search}`: a page of the remote fallback of spec §5, with the true total. */
export function searchQuery<Row>(routes: ListRoutes<Row>, search: string, page: number) {
  return queryOptions({
    queryKey: [...resourceKey(routes), 'search', search, page],
    queryFn: ({ signal }) => send(routes.search, { query: { per_page: PAGE_SIZE, page }, body: { search }, signal }),
    select: pageOf<Row>,
    // Paging through the results keeps the current page on screen; another text does not show the last one's.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === search ? previous : undefined),
  });
}

export function createRow(routes: ListRoutes, body: unknown) {
  return send(routes.create, { body });
}

export function updateRow(routes: ListRoutes, id: number, body: unknown) {
  return send(routes.update, { params: { id }, body });
}

export function deleteRow(routes: ListRoutes, id: number) {
  return send(routes.remove, { params: { id } });
}

/** Spec §4: status 1 activates, 0 deactivates. */
export function setRowState(routes: ListRoutes, id: number, isActive: boolean) {
  return send(routes.setState, { params: { id, state: isActive ? '1' : '0' } });
}
