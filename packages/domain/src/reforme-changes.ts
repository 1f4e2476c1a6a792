import { REFORME_MESSAGES, STAGES, type Stage } from './reforme-rules.ts';

/** What may be done to a reform itself, as opposed to moving it along the workflow (`transitionOf`). */
export type ReformeChange = 'edit' | 'delete' | 'status';

export const REFORME_CHANGE_MESSAGES = {
  wrongRole: 'Votre rôle ne permet pas de modifier les réformes.',
  wrongStage: "La réforme n'est plus à votre étape du circuit : seule l'étape où elle se trouve peut la modifier.",
  publishedDelete: "Une réforme publiée ne peut pas être supprimée : arrêtez d'abord sa publication.",
  followUpDelete: 'Cette réforme a des données de suivi : elle ne peut pas être supprimée.',
} as const;

export type ChangeVerdict = { allowed: true } | { allowed: false; status: 403 | 409; message: string };

const refuse = (status: 403 | 409, message: string): ChangeVerdict => ({ allowed: false, status, message });

/**
 * The stage at which a role holds the reforms it may change: saisie its drafts (1), validation what
 * waits for validation (2), publication and saisie central what waits for or is in publication (3, where
 * saisie central's own reforms start). Admin and any other role hold none.
 */
export function changeStageOf(role: string | undefined): Stage | undefined {
  switch (role) {
    case 'saisie':
      return STAGES.transmission;
    case 'validation':
      return STAGES.validation;
    case 'publication':
    case 'saisie central':
      return STAGES.publication;
    default:
      return undefined;
  }
}

/**
 * One rule for editing, deleting and (de)activating a reform, and for changing what hangs off it
 * (objectives, results, files: an `edit`). A reform belongs to the stage where it waits: only the role
 * working at that stage changes it (scope by structure is the server's `findReformeInScope`). A published
 * reform is not deleted, nor one that holds follow-up records: their history would go with them.
 * A wrong role is 403, a wrong moment 409, as for the workflow's transitions.
 * `hasFollowUp` is optional: a screen that does not know lets the server decide.
 */
export function reformeChangeOf(
  reforme: { stage: number; isPublished: boolean; hasFollowUp?: boolean },
  change: ReformeChange,
  role: string | undefined,
): ChangeVerdict {
  const stage = changeStageOf(role);
  if (stage === undefined) return refuse(403, REFORME_CHANGE_MESSAGES.wrongRole);
  if (reforme.stage !== stage) return refuse(409, reforme.isPublished ? REFORME_MESSAGES.published : REFORME_CHANGE_MESSAGES.wrongStage);
  if (change === 'delete' && reforme.isPublished) return refuse(409, REFORME_CHANGE_MESSAGES.publishedDelete);
  if (change === 'delete' && reforme.hasFollowUp) return refuse(409, REFORME_CHANGE_MESSAGES.followUpDelete);
  return { allowed: true };
}
