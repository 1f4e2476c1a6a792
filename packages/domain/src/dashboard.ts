import type { RoleName } from './roles.ts';
import type { DashboardCounter } from './shapes/dashboard.ts';

/** What the dashboard says to a role that may see no indicator (spec §2.3 "any other role", a right revoked). */
export const DASHBOARD_MESSAGES = {
  noIndicator: 'Aucun indicateur pour votre rôle',
  noIndicatorHint: 'Votre compte reste accessible depuis le menu utilisateur, en haut à droite : « Mon compte ».',
} as const;

export interface StatCard {
  key: DashboardCounter;
  label: string;
}

const COMMON: StatCard[] = [
  { key: 'total_reforme', label: 'Réformes' },
  { key: 'total_reforme_admin', label: 'Réformes administratives' },
  { key: 'total_reforme_ins', label: 'Réformes institutionnelles' },
];

/** The stat cards each role sees on the dashboard (spec §2.6). */
export function statCardsOf(role: string | undefined): StatCard[] {
  const extra: Partial<Record<RoleName, StatCard[]>> = {
    'saisie central': [{ key: 'total_pending', label: 'Réformes en attente de transmission' }],
    saisie: [{ key: 'total_pending', label: 'Réformes en attente de transmission' }],
    validation: [{ key: 'total_pending', label: 'Réformes en attente de validation' }],
    publication: [{ key: 'total_pending', label: 'Réformes en attente de publication' }],
    admin: [
      { key: 'users', label: 'Compte Utilisateurs' },
      { key: 'total_structures', label: 'Structures' },
    ],
  };
  return [...COMMON, ...((role && Object.hasOwn(extra, role) && extra[role as RoleName]) || [])];
}

/** The stage whose reforms the role's "en attente" card counts (architecture §4); none for admin. */
export function pendingStageOf(role: string | undefined): 1 | 2 | 3 | undefined {
  switch (role) {
    case 'saisie':
    case 'saisie central':
      return 1;
    case 'validation':
      return 2;
    case 'publication':
      return 3;
    default:
      return undefined;
  }
}
