import { MAX_PER_PAGE, TIMELINE_ROUTES, type TimelineKind, type TimelineLine } from '@reformes/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call.ts';
import { PAGE_SIZE } from '../../api/list-api.ts';

const historyKey = (reformeId: number) => ['reformes', reformeId, 'history'] as const;

/** `GET reformes/{id}/history?kind=…&page=N`: one page of the reform's timeline, newest first. */
export function timelinePageQuery(reformeId: number, kind: TimelineKind | '', page: number) {
  return queryOptions({
    queryKey: [...historyKey(reformeId), kind, page],
    queryFn: ({ signal }) =>
      call(TIMELINE_ROUTES.history, { params: { id: reformeId }, query: { kind: kind || undefined, page, per_page: PAGE_SIZE }, signal }),
    select: (answer) => answer.data,
    placeholderData: keepPreviousData,
  });
}

/** The whole timeline, for the printed sheet: page after page of the largest size, as long as the reform's history. */
export function wholeTimelineQuery(reformeId: number) {
  return queryOptions({
    queryKey: [...historyKey(reformeId), 'whole'],
    queryFn: async ({ signal }) => {
      const lines: TimelineLine[] = [];
      for (let page = 1; ; page++) {
        const answer = await call(TIMELINE_ROUTES.history, { params: { id: reformeId }, query: { page, per_page: MAX_PER_PAGE }, signal });
        lines.push(...answer.data.data);
        if (page >= answer.data.last_page) return lines;
      }
    },
  });
}
