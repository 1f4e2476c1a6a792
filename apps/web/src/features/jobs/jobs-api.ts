import { JOBS_ROUTES, type JobState } from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { PAGE_SIZE } from '../../api/list-api.ts';

export const JOBS_KEY = ['jobs'] as const;

/** `GET jobs?state=failed&per_page=10&page=N`: the failed ones, last failed first, or the waiting ones, next due first. */
export function jobsPageQuery(state: JobState, page: number) {
  return queryOptions({
    queryKey: [...JOBS_KEY, state, page],
    queryFn: ({ signal }) => call(JOBS_ROUTES.list, { query: { state, page, per_page: PAGE_SIZE }, signal }),
    select: (answer) => answer.data,
    placeholderData: keepPreviousData,
  });
}

/** `POST jobs/:id/retry`: a failed job waits again, due now. */
export const retryJob = (id: number) => call(JOBS_ROUTES.retry, { params: { id } });
