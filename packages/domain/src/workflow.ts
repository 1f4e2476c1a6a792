import { STAGES, type Stage } from './reforme-rules.ts';

export type WorkflowAction = 'transmit' | 'return' | 'publish' | 'unpublish';

export const WORKFLOW_MESSAGES = {
  wrongRole: 'Votre rôle ne permet pas cette action sur le circuit de la réforme.',
  wrongStage: "La réforme n'est pas à l'étape qui permet cette action.",
  alreadyPublished: 'La réforme est déjà publiée.',
  notPublished: "La réforme n'est pas publiée.",
  publishedLocked: 'Une réforme publiée ne circule plus : arrêtez sa publication avant de la retourner ou de la transmettre.',
  instructionRequired: "L'instruction est requise",
  transmitted: 'Réforme transmise avec succès',
  returned: 'Réforme retournée pour correction',
  published: 'Réforme publiée avec succès',
  unpublished: 'Publication de la réforme arrêtée',
  confirmTransmit: 'Voulez vous transmettre cet enregistrement ?',
  confirmSend: 'Voulez vous envoyer cet enregistrement ?',
  confirmPublish: 'Voulez vous publier cette réforme ?',
  confirmUnpublish: 'Voulez vous arrêter de publier cette réforme ?',
  transmitTitle: 'Transmission de la réforme',
  transmissionErrorTitle: "Transmission de l'enregistrement",
  publishTitle: 'Publication de réforme',
  // Screens (spec §2.10 "Reforms to validate")
  treatmentTitle: 'Liste des réformes à valider',
  returnAction: 'Retourner pour correction',
  transmitAction: 'Transmettre',
  publishAction: 'Publier',
  unpublishAction: 'Arrêter la publication',
  instructionLabel: 'Instruction',
  returnedBanner: 'Réforme retournée pour correction',
} as const;

/** Stage names shown in the history (architecture §4). */
export const STAGE_LABELS: Record<number, string> = { 1: 'Saisie', 2: 'Validation', 3: 'Publication' };

/** What each history row records (`affectations.event`). */
export const HISTORY_EVENT_LABELS: Record<string, string> = {
  creation: 'Création',
  transmission: 'Transmission',
  retour: 'Retour pour correction',
  publication: 'Publication',
  depublication: 'Arrêt de la publication',
};

/** The stage a role works at: where its "A transmettre / A valider / A publier" list looks. */
export function workStageOf(role: string | undefined): Stage | undefined {
  switch (role) {
    case 'saisie':
      return STAGES.transmission;
    case 'validation':
      return STAGES.validation;
    case 'publication':
      return STAGES.publication;
    default:
      return undefined;
  }
}

export type Transition = { allowed: true; to: Stage } | { allowed: false; status: 403 | 409; message: string };

const refuse = (status: 403 | 409, message: string): Transition => ({ allowed: false, status, message });

/**
 * The workflow of architecture §4 as one pure function: transmit moves 1 -> 2 -> 3 (by the
 * role at the current stage), return moves 3 -> 2 -> 1 (publication or validation, with an
 * instruction), publish and unpublish toggle the flag at stage 3 (publication, saisie central).
 * A wrong role is 403, a wrong stage 409.
 */
export function transitionOf(
  reforme: { stage: number; isPublished: boolean },
  action: WorkflowAction,
  role: string | undefined,
): Transition {
  const stage = reforme.stage as Stage;
  switch (action) {
    case 'transmit': {
      if (role !== 'saisie' && role !== 'validation') return refuse(403, WORKFLOW_MESSAGES.wrongRole);
      if (reforme.isPublished) return refuse(409, WORKFLOW_MESSAGES.publishedLocked);
      if (workStageOf(role) !== stage) return refuse(409, WORKFLOW_MESSAGES.wrongStage);
      return { allowed: true, to: (stage + 1) as Stage };
    }
    case 'return': {
      if (role !== 'publication' && role !== 'validation') return refuse(403, WORKFLOW_MESSAGES.wrongRole);
      if (reforme.isPublished) return refuse(409, WORKFLOW_MESSAGES.publishedLocked);
      if (workStageOf(role) !== stage) return refuse(409, WORKFLOW_MESSAGES.wrongStage);
      return { allowed: true, to: (stage - 1) as Stage };
    }
    case 'publish':
    case 'unpublish': {
      if (role !== 'publication' && role !== 'saisie central') return refuse(403, WORKFLOW_MESSAGES.wrongRole);
      if (stage !== STAGES.publication) return refuse(409, WORKFLOW_MESSAGES.wrongStage);
      if (action === 'publish' && reforme.isPublished) return refuse(409, WORKFLOW_MESSAGES.alreadyPublished);
      if (action === 'unpublish' && !reforme.isPublished) return refuse(409, WORKFLOW_MESSAGES.notPublished);
      return { allowed: true, to: stage };
    }
  }
}

/**
 * The confirmation of a transmission (spec §4): saisie transmits its record for validation
 * ("Transmission de la réforme", "Voulez vous transmettre…"); validation sends it on to publication
 * ("Transmission de l'enregistrement", "Voulez vous envoyer…").
 */
export function transmitConfirmationOf(role: string | undefined): { title: string; question: string } {
  if (role === 'validation') return { title: WORKFLOW_MESSAGES.transmissionErrorTitle, question: WORKFLOW_MESSAGES.confirmSend };
  return { title: WORKFLOW_MESSAGES.transmitTitle, question: WORKFLOW_MESSAGES.confirmTransmit };
}

/**
 * Whose reforms "A transmettre / A valider / A publier" lists: the role's work stage; saisie
 * central's reforms start at publication, so that is where it finds them.
 */
export function treatmentStageOf(role: string | undefined): Stage | undefined {
  return role === 'saisie central' ? STAGES.publication : workStageOf(role);
}
