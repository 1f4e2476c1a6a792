import { JOBS_MESSAGES, jobsQuerySchema } from '../jobs.ts';
import type { Action } from '../permissions.ts';
import { idParamsSchema } from '../reference.ts';
import { messageShape, pagedShape } from '../shapes/envelope.ts';
import { jobRowShape } from '../shapes/jobs.ts';
import { routesOf } from './route.ts';

const can = <A extends Action>(action: A) => ({ feature: 'jobs', action }) as const;

/** Failed and waiting mails and jobs (issue 31): admin sees them and sends a failed one again. */
export const JOBS_ROUTES = routesOf([JOBS_MESSAGES.title], {
  list: {
    method: 'GET',
    path: '/jobs',
    access: can('list'),
    summary: 'Tâches en échec ou en attente (destinataire et objet, jamais le corps du courriel)',
    querystring: jobsQuerySchema,
    answer: pagedShape(jobRowShape),
  },
  retry: {
    method: 'POST',
    path: '/jobs/:id/retry',
    access: can('edit'),
    summary: 'Relance une tâche en échec : de nouveau en attente, tentatives remises à zéro',
    params: idParamsSchema,
    answer: messageShape,
  },
});
