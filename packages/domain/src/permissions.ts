import type { RoleName } from './roles.ts';

/** Allowed permission actions (spec §3, §9). */
export const ACTIONS = ['list', 'add', 'show', 'edit', 'delete', 'status'] as const;
export type Action = (typeof ACTIONS)[number];

/** How the screens name each action ("Liste des permissions", profils). */
export const ACTION_LABELS: Record<Action, string> = {
  list: 'Lister',
  add: 'Ajouter',
  show: 'Consulter',
  edit: 'Modifier',
  delete: 'Supprimer',
  status: 'Activer/Désactiver',
};

/** The feature catalogue: every API route declares one of these plus an action. */
export const FEATURES = [
  { name: 'dashboard', link: '/admin/dashboard', tag: 'Tableau de bord' },
  { name: 'account', link: '/admin/user-account', tag: 'Mon compte' },
  { name: 'users', link: '/admin/users', tag: 'Comptes utilisateurs' },
  { name: 'roles', link: '/admin/roles', tag: 'Rôles' },
  { name: 'permissions', link: '/admin/permissions', tag: 'Permissions' },
  { name: 'profiles', link: '/admin/profils', tag: 'Rôles & permissions' },
  { name: 'features', link: '/admin/permissions', tag: 'Fonctionnalités' },
  { name: 'sectors', link: '/admin/sectors', tag: 'Secteurs' },
  { name: 'structures', link: '/admin/structures', tag: 'Structures' },
  { name: 'natures', link: '/admin/natures', tag: 'Natures' },
  { name: 'covers', link: '/admin/covers', tag: 'Couvertures' },
  { name: 'entities', link: '/admin/entities', tag: 'Entités administratives' },
  { name: 'reformes', link: '/admin/list-reformes', tag: 'Réformes' },
  { name: 'reformes-import', link: '/admin/import-reformes', tag: 'Import de réformes' },
  { name: 'publication', link: '/admin/treatment-reformes', tag: 'Publication de réforme' },
  { name: 'affectations', link: '/admin/treatment-reformes', tag: "Transmission de l'enregistrement" },
  { name: 'files', link: '/admin/create-reforme', tag: 'Fichiers joints' },
  { name: 'objectifs', link: '/admin/objectifs', tag: 'Objectifs' },
  { name: 'resultats', link: '/admin/objectifs', tag: 'Résultats attendus' },
  { name: 'resultats-validation', link: '/admin/follow-reformes', tag: 'Validation des résultats' },
  { name: 'suivi-results', link: '/admin/follow-reforme-create', tag: 'Données de suivi' },
  { name: 'backups', link: '/admin/backups', tag: 'Sauvegarde' },
  { name: 'user-settings', link: '/admin/user-settinngs', tag: 'Paramètres utilisateur' },
  { name: 'audit', link: '/admin/audit', tag: "Journal d'audit" },
  { name: 'jobs', link: '/admin/jobs', tag: 'Courriels et tâches' },
] as const;
export type FeatureName = (typeof FEATURES)[number]['name'];

/** "reformes.list": the name a permission carries and the form the login response lists. */
export function permissionName(feature: string, action: string): string {
  return `${feature}.${action}`;
}

type Grants = Partial<Record<FeatureName, readonly Action[]>>;

const ALL: readonly Action[] = ACTIONS;
const READ: readonly Action[] = ['list', 'show'];
const CRUD: readonly Action[] = ['list', 'show', 'add', 'edit', 'delete'];
const REFERENCE_LOOKUPS: Grants = { natures: READ, covers: READ, structures: READ, sectors: READ };
const EVERYONE: Grants = { dashboard: ['list'], account: ['show', 'edit'], 'user-settings': CRUD };

/**
 * Default rights of each role, from spec §6 (menus of §2.3, button matrices) and the
 * workflow decisions of the architecture. Admin holds its powers through these rows too.
 */
export const DEFAULT_GRANTS: Record<RoleName, Grants> = {
  admin: {
    ...EVERYONE,
    users: ALL,
    roles: ALL,
    permissions: ALL,
    profiles: ALL,
    features: READ,
    sectors: ALL,
    structures: ALL,
    natures: ALL,
    covers: ALL,
    entities: ALL,
    backups: ALL,
    reformes: ['list'],
    // The import of issue 17, a right of its own so that an admin can take it from a role (migration 0011).
    'reformes-import': ['add'],
    // The security audit log (migration 0006 grants it to the admin role of an existing database).
    audit: ['list'],
    // Failed mails and jobs, seen and retried (issue 31; migration 0013 grants it on an existing database).
    jobs: ['list', 'edit'],
  },
  'saisie central': {
    ...EVERYONE,
    sectors: ALL,
    structures: ALL,
    natures: ALL,
    covers: ALL,
    entities: ALL,
    reformes: ALL,
    'reformes-import': ['add'],
    publication: ['edit'],
    files: ['add', 'show', 'delete'],
    // status: objectives and expected results are deactivated, not deleted, once they are followed (spec §4).
    objectifs: ALL,
    resultats: ALL,
    'suivi-results': READ,
  },
  saisie: {
    ...EVERYONE,
    ...REFERENCE_LOOKUPS,
    reformes: CRUD,
    affectations: ['add'],
    files: ['add', 'show', 'delete'],
    objectifs: ALL,
    resultats: ALL,
    'suivi-results': ['list', 'show', 'add'],
  },
  validation: {
    ...EVERYONE,
    ...REFERENCE_LOOKUPS,
    reformes: CRUD,
    affectations: ['add'],
    files: ['add', 'show', 'delete'],
    objectifs: READ,
    resultats: READ,
    'suivi-results': ['list', 'show', 'add', 'delete'],
  },
  publication: {
    ...EVERYONE,
    ...REFERENCE_LOOKUPS,
    reformes: CRUD,
    publication: ['edit'],
    affectations: ['add'],
    files: ['add', 'show', 'delete'],
    objectifs: READ,
    resultats: READ,
    'resultats-validation': ['edit'],
    'suivi-results': READ,
  },
};

/** Flattens a role's grants to permission names ("reformes.list", ...). */
export function defaultPermissionNames(role: RoleName): string[] {
  return Object.entries(DEFAULT_GRANTS[role]).flatMap(([feature, actions]) =>
    (actions ?? []).map((action) => permissionName(feature, action)),
  );
}
