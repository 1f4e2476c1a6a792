import type { AnswerOf, DASHBOARD_ROUTES } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

/** The live counters of the dashboard, for the signed-in user's scope. */
export function dashboardQuery(userId: number | undefined) {
  return queryOptions({
    queryKey: ['dashboard', userId],
    // `dash/`, with the slash the screens' tests expect on the wire, is the table's `/dash` (the server ignores it).
    queryFn: ({ signal }) => api.get<AnswerOf<typeof DASHBOARD_ROUTES.own>>('dash/', { action: 'list', signal }),
    select: (response) => response.data,
  });
}
