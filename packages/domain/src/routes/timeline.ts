import { idParamsSchema } from '../reference.ts';
import { pagedShape } from '../shapes/envelope.ts';
import { timelineLineShape } from '../shapes/timeline.ts';
import { TIMELINE_MESSAGES, timelineQuerySchema } from '../timeline.ts';
import { routesOf } from './route.ts';

/** A reform's history (issue 32), scoped like the reform itself. */
export const TIMELINE_ROUTES = routesOf(['Réformes'], {
  history: {
    method: 'GET',
    path: '/reformes/:id/history',
    access: { feature: 'reformes', action: 'show' },
    summary: `${TIMELINE_MESSAGES.tab} : changements champ par champ et étapes du circuit, les plus récents d'abord`,
    params: idParamsSchema,
    querystring: timelineQuerySchema,
    answer: pagedShape(timelineLineShape),
  },
});
