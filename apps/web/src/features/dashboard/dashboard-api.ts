import type { DashboardView } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { type ApiResponse, api } from '../../api/client.ts';

/** The live counters of the dashboard, for the signed-in user's scope. */
export function dashboardQuery(userId: number | undefined) {
  return queryOptions({
    queryKey: ['dashboard', userId],
    queryFn: ({ signal }) => api.get<ApiResponse<DashboardView>>('dash/', { action: 'list', signal }),
    select: (response) => response.data,
  });
}
