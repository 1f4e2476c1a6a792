import { pageQuerySchema } from './paging.ts';
import { MAX_PER_PAGE } from './reference.ts';
import { z } from './zod-locale.ts';

/** The two lists of the screen "Courriels et tâches" (issue 31): jobs kept after their last attempt, and those waiting. */
export const JOB_STATES = { failed: 'En échec', pending: 'En attente' } as const;
export type JobState = keyof typeof JOB_STATES;

/** What each kind of job is, as the screen names it; the server's queue knows the same kinds (jobs/queue.ts). */
export const JOB_KIND_LABELS: Record<string, string> = {
  mail: 'Courriel',
  'reset-link': 'Lien de réinitialisation',
  'purge-uploads': 'Purge des fichiers en attente',
  'audit-retention': "Purge du journal d'audit",
  backup: 'Sauvegarde quotidienne',
  reminders: 'Rappels par courriel',
};

/** Rows of a page when the client names none. */
export const JOBS_PER_PAGE = 20;

export const JOBS_MESSAGES = {
  title: 'Courriels et tâches',
  empty: { failed: 'Aucune tâche en échec.', pending: 'Aucune tâche en attente.' },
  retry: 'Relancer',
  retryTitle: 'Relancer la tâche',
  retryConfirm: 'La tâche sera tentée de nouveau dès maintenant, avec toutes ses tentatives.',
  retried: 'Tâche relancée : elle sera tentée de nouveau dans un instant.',
  notFailed: "Cette tâche n'existe pas ou n'est pas en échec.",
  erased: "Le contenu de ce courriel a été effacé (il portait un secret, ou n'était pas un courriel valide) : il ne peut pas être relancé.",
} as const;

/** `GET /jobs?state=failed&page=2`: always a page (JOBS_PER_PAGE rows unless `per_page` says otherwise). */
export const jobsQuerySchema = pageQuerySchema.extend({
  state: z.enum(Object.keys(JOB_STATES) as [JobState, ...JobState[]], { error: 'État inconnu' }).default('failed'),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(JOBS_PER_PAGE),
});
export type JobsQuery = z.infer<typeof jobsQuerySchema>;
