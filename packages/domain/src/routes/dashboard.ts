import { dashboardAnswer } from '../shapes/dashboard.ts';
import { limitedText } from '../text-fields.ts';
import { TEXT_LIMITS } from '../text-limits.ts';
import { z } from '../zod-locale.ts';
import { routesOf } from './route.ts';

const access = { feature: 'dashboard', action: 'list' } as const;

/** `/dash/:role`: any role name (a role of one's own included); the handler says who may look at which. */
export const dashboardRoleParamsSchema = z.object({ role: limitedText(TEXT_LIMITS.label) });

/** Spec §2.6: the dashboard's counters. */
export const DASHBOARD_ROUTES = routesOf(['Tableau de bord'], {
  own: { method: 'GET', path: '/dash', access, summary: 'Compteurs du tableau de bord', answer: dashboardAnswer },
  ofRole: {
    method: 'GET',
    path: '/dash/:role',
    access,
    summary: "Compteurs vus par un rôle (le sien ; tous pour l'admin)",
    params: dashboardRoleParamsSchema,
    answer: dashboardAnswer,
  },
});
