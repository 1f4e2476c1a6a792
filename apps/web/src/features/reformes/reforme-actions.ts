import { canChangePublished, permissionName, transitionOf, WORKFLOW_MESSAGES } from '@reformes/domain';

export type ReformeAction =
  | 'view'
  | 'edit'
  | 'delete'
  | 'activate'
  | 'deactivate'
  | 'objectifs'
  | 'resultat'
  | 'return'
  | 'transmit'
  | 'publish'
  | 'unpublish';

/** The buttons each screen may offer (spec §2.10, §6). */
export const SCREEN_ACTIONS = {
  list: ['view', 'edit', 'delete', 'activate', 'deactivate', 'publish', 'unpublish', 'objectifs', 'resultat'],
  treatment: ['view', 'edit', 'delete', 'activate', 'deactivate', 'objectifs', 'resultat', 'return', 'transmit', 'publish'],
  myList: ['view', 'edit', 'delete'],
  search: ['view'],
} as const satisfies Record<string, readonly ReformeAction[]>;
export type ReformeScreen = keyof typeof SCREEN_ACTIONS;

/** Accessible names (and tooltips) of the row buttons. */
export const ACTION_LABELS: Record<ReformeAction, string> = {
  view: 'Consulter',
  edit: 'Modifier',
  delete: 'Supprimer',
  activate: 'Activer',
  deactivate: 'Désactiver',
  objectifs: 'Définir les objectifs',
  resultat: 'Enregistrer un résultat attendu',
  return: WORKFLOW_MESSAGES.returnAction,
  transmit: WORKFLOW_MESSAGES.transmitAction,
  publish: WORKFLOW_MESSAGES.publishAction,
  unpublish: WORKFLOW_MESSAGES.unpublishAction,
};

export interface ActionableReforme {
  stage: number;
  isPublished: boolean;
  is_active: boolean;
}

/**
 * The row buttons a user gets: the screen's set, kept when the stored rights hold the matching
 * permission AND the domain rules allow it now (the workflow transition, the lock on published
 * reforms). The server enforces the same rules whatever is shown.
 */
export function reformeActionsFor(
  reforme: ActionableReforme,
  role: string | undefined,
  features: readonly string[],
  screen: ReformeScreen,
): ReformeAction[] {
  const has = (feature: string, action: string) => features.includes(permissionName(feature, action));
  const changeable = !reforme.isPublished || canChangePublished(role);
  const allowed: Record<ReformeAction, boolean> = {
    view: has('reformes', 'show'),
    edit: has('reformes', 'edit') && changeable,
    delete: has('reformes', 'delete') && changeable,
    activate: has('reformes', 'status') && changeable && !reforme.is_active,
    deactivate: has('reformes', 'status') && changeable && reforme.is_active,
    objectifs: has('objectifs', 'add') && changeable,
    resultat: has('resultats', 'add') && changeable,
    return: has('affectations', 'add') && transitionOf(reforme, 'return', role).allowed,
    transmit: has('affectations', 'add') && transitionOf(reforme, 'transmit', role).allowed,
    publish: has('publication', 'edit') && transitionOf(reforme, 'publish', role).allowed,
    unpublish: has('publication', 'edit') && transitionOf(reforme, 'unpublish', role).allowed,
  };
  return SCREEN_ACTIONS[screen].filter((action) => allowed[action]);
}
