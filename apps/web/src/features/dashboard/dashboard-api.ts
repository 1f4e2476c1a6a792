import type { DashboardData } from '@reformes/domain';
import { queryOptions } from '@tanstack/react-query';
import { type ApiResponse, api } from '../../api/client.ts';

export interface DashboardFigures extends DashboardData {
  by_etat?: { etat_mor: string; total: number }[];
  by_nature?: { libnature: string; total: number }[];
}

/** The live counters of the dashboard, for the signed-in user's scope. */
export function dashboardQuery(userId: number | undefined) {
  return queryOptions({
    queryKey: ['dashboard', userId],
    queryFn: ({ signal }) => api.get<ApiResponse<DashboardFigures>>('dash/', { action: 'list', signal }),
    select: (response) => response.data,
  });
}
