import { type Action, type FeatureName, reformeChangeOf, transitionOf, WORKFLOW_MESSAGES } from '@reformes/domain';
import { hasRight } from '../../session/use-can.ts';

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

/**
 * Buttons a screen shows but never enables: spec §6 "My records: show, add, delete enabled, edit
 * disabled" (editing is reached from "A transmettre").
 */
export const DISABLED_ACTIONS: Partial<Record<ReformeScreen, readonly ReformeAction[]>> = { myList: ['edit'] };

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
 * permission AND the domain rules allow it now (`reformeChangeOf` for edit, delete, state and what
 * hangs off the reform; `transitionOf` for the workflow). The server enforces the same rules whatever
 * is shown. A button of `DISABLED_ACTIONS` is listed when the right allows it, and rendered disabled.
 */
export function reformeActionsFor(
  reforme: ActionableReforme,
  role: string | undefined,
  features: readonly string[],
  screen: ReformeScreen,
): ReformeAction[] {
  const has = (feature: FeatureName, action: Action) => hasRight(features, feature, action);
  const disabled = DISABLED_ACTIONS[screen] ?? [];
  const may = (change: 'edit' | 'delete' | 'status') => reformeChangeOf(reforme, change, role).allowed;
  const allowed: Record<ReformeAction, boolean> = {
    view: has('reformes', 'show'),
    edit: has('reformes', 'edit') && (disabled.includes('edit') || may('edit')),
    delete: has('reformes', 'delete') && may('delete'),
    activate: has('reformes', 'status') && may('status') && !reforme.is_active,
    deactivate: has('reformes', 'status') && may('status') && reforme.is_active,
    objectifs: has('objectifs', 'add') && may('edit'),
    resultat: has('resultats', 'add') && may('edit'),
    return: has('affectations', 'add') && transitionOf(reforme, 'return', role).allowed,
    transmit: has('affectations', 'add') && transitionOf(reforme, 'transmit', role).allowed,
    publish: has('publication', 'edit') && transitionOf(reforme, 'publish', role).allowed,
    unpublish: has('publication', 'edit') && transitionOf(reforme, 'unpublish', role).allowed,
  };
  return SCREEN_ACTIONS[screen].filter((action) => allowed[action]);
}

/** Whether the screen shows this button disabled (spec §6). */
export function isActionDisabled(screen: ReformeScreen, action: ReformeAction): boolean {
  return (DISABLED_ACTIONS[screen] ?? []).includes(action);
}
