import { normalizeSearchText } from './search-text.ts';
import { z } from './zod-locale.ts';

/** Every event the security audit log records, by code, with the French label the screen and the export show. */
export const AUDIT_ACTIONS = {
  login: 'Connexion',
  lockout: 'Verrouillage du compte',
  logout: 'Déconnexion',
  'password.change': 'Changement de mot de passe',
  'password.first_change': 'Premier changement de mot de passe',
  'password.reset_request': 'Demande de réinitialisation du mot de passe',
  'password.reset': 'Réinitialisation du mot de passe par lien',
  'password.admin_reset': 'Réinitialisation du mot de passe par un administrateur',
  'user.create': 'Création de compte',
  'user.update': 'Modification de compte',
  'user.block': 'Blocage de compte',
  'user.unblock': 'Déblocage de compte',
  'user.delete': 'Suppression de compte',
  'role.create': 'Création de rôle',
  'role.update': 'Modification de rôle',
  'role.status': 'Activation / désactivation de rôle',
  'role.delete': 'Suppression de rôle',
  'role.windows_copy': "Copie des menus d'un rôle",
  'permission.create': 'Création de permission',
  'permission.update': 'Modification de permission',
  'permission.status': 'Activation / désactivation de permission',
  'permission.delete': 'Suppression de permission',
  'profile.grant': 'Attribution de droits',
  'profile.revoke': "Retrait d'un droit",
  'profile.status': "Activation / désactivation d'un droit",
  'profile.copy': 'Copie des droits',
  'backup.create': 'Sauvegarde effectuée',
  'backup.download': "Téléchargement d'une sauvegarde",
  'backup.restore': "Restauration d'une sauvegarde",
  'backup.delete': "Suppression d'une sauvegarde",
  'reforme.publish': "Publication d'une réforme",
  'reforme.unpublish': "Dépublication d'une réforme",
  'reforme.import': 'Import de réformes',
  'audit.export': "Export du journal d'audit",
  'audit.purge': "Purge des entrées anciennes du journal d'audit",
  'job.retry': "Relance d'une tâche en échec",
  'reminders.run': 'Envoi des rappels à la demande',
  'access.denied': 'Accès refusé',
  'session.refresh_reuse': "Réutilisation d'un jeton de session déjà utilisé",
  'two_factor.enable': 'Activation de la double authentification',
  'two_factor.disable': 'Désactivation de la double authentification',
  'two_factor.reset': 'Réinitialisation de la double authentification',
  'two_factor.recovery_used': 'Connexion avec un code de secours',
  'two_factor.recovery_codes_renewed': 'Renouvellement des codes de secours',
  reauthentication: "Vérification de l'identité avant une opération sensible",
  'directory.sign_in': "Connexion par l'annuaire",
  'directory.link': "Liaison d'un compte à l'annuaire",
  'directory.unlink': "Suppression du lien d'un compte avec l'annuaire",
  'directory.account_created': "Création de compte par l'annuaire",
  'directory.backchannel_logout': "Déconnexion demandée par l'annuaire",
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_CODES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

export const AUDIT_RESULTS = { success: 'Succès', failure: 'Échec' } as const;
export type AuditResult = keyof typeof AUDIT_RESULTS;

/** What an event acted on. A role's rights are logged on the role, the permission named in the details. */
export const AUDIT_TARGETS = {
  user: 'Compte',
  role: 'Rôle',
  permission: 'Permission',
  backup: 'Sauvegarde',
  reforme: 'Réforme',
  job: 'Tâche',
} as const;
export type AuditTargetType = keyof typeof AUDIT_TARGETS;

/** Why a sign-in or a password reset failed (`details.reason`). */
export const AUDIT_REASONS = {
  unknown_email: 'email inconnu',
  wrong_password: 'mot de passe incorrect',
  locked: 'compte verrouillé',
  blocked: 'compte bloqué',
  invalid_token: 'lien invalide ou expiré',
  throttled: 'trop de tentatives, attente imposée',
  temporary_expired: 'mot de passe temporaire expiré',
  wrong_code: 'code de vérification incorrect',
  password_signin_off: 'connexion par mot de passe réservée aux administrateurs',
  // Issue 42: the directory's refusals.
  unknown_identity: "identité de l'annuaire liée à aucun compte",
  email_not_verified: "adresse e-mail non confirmée par l'annuaire",
  account_linked_elsewhere: "compte déjà lié à une autre identité de l'annuaire",
  email_taken: 'adresse e-mail déjà utilisée par un autre compte',
  no_email: "l'annuaire n'a pas donné d'adresse e-mail",
  pending: 'compte en attente de rôle et de structure',
  acr_too_low: "niveau d'authentification insuffisant",
  no_state: 'réponse sans état',
  state_mismatch: 'état différent de celui du navigateur',
  state_unknown_or_used: 'état inconnu ou déjà utilisé',
  state_expired: 'connexion commencée il y a plus de 10 minutes',
  provider_error: "refus de l'annuaire",
  token_refused: "jeton d'identité refusé",
  provider_down: "l'annuaire ne répond pas",
  userinfo_refused: 'informations utilisateur refusées',
  no_id_token: "réponse sans jeton d'identité",
  identity_taken: 'identité déjà liée à un autre compte',
  already_linked: "compte déjà lié à l'annuaire",
  link_without_account: 'liaison sans compte',
} as const;
export type AuditReason = keyof typeof AUDIT_REASONS;

export const AUDIT_MESSAGES = {
  title: "Journal d'audit",
  empty: 'Aucun événement',
  export: 'Exporter (CSV)',
  exportTitle: "Export du journal d'audit",
  periodOrder: 'La date de fin doit suivre la date de début',
} as const;

/** The columns of the screen; the CSV export adds the details. */
export const AUDIT_COLUMNS = ['Date', 'Utilisateur', 'Action', 'Cible', 'Résultat', 'Adresse IP'] as const;

/**
 * What the texts below read of an entry (`AuditEntry`, shapes/audit.ts, has these fields): written here rather
 * than imported, since the shape takes its results from this module.
 */
interface EntryFacts {
  target_type: string | null;
  target_id: number | null;
  target_label: string | null;
  result: AuditResult;
  details: Record<string, unknown>;
}

export function auditActionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}

/** `Compte awa@reformes.test`, `Rôle #12` once its name is unknown, '' without a target. */
export function auditTargetText(entry: Pick<EntryFacts, 'target_type' | 'target_id' | 'target_label'>): string {
  if (!entry.target_type) return entry.target_label ?? '';
  const type = (AUDIT_TARGETS as Record<string, string>)[entry.target_type] ?? entry.target_type;
  const name = entry.target_label ?? (entry.target_id === null ? '' : `#${entry.target_id}`);
  return name ? `${type} ${name}` : type;
}

/** `Succès`, or `Échec (mot de passe incorrect)` when the details say why. */
export function auditResultText(entry: Pick<EntryFacts, 'result' | 'details'>): string {
  const label = AUDIT_RESULTS[entry.result] ?? entry.result;
  const reason = entry.details?.reason;
  const why = typeof reason === 'string' ? ((AUDIT_REASONS as Record<string, string>)[reason] ?? reason) : undefined;
  return why ? `${label} (${why})` : label;
}

const DETAIL_LABELS: Record<string, string> = {
  permissions: 'Droits',
  permission: 'Droit',
  from_role: 'Depuis le rôle',
  roles: 'Rôles',
  is_active: 'Actif',
  files: 'Fichiers',
  failures: 'Échecs',
  wait_seconds: 'Attente (s)',
  previous_email: 'Ancien email',
  filters: 'Filtres',
  system_user: 'Compte système',
  host: 'Machine',
  command: 'Commande',
};

function detailValueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(detailValueText).join(', ');
  if (typeof value === 'boolean') return value ? 'oui' : 'non';
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .map(([key, item]) => `${key} = ${detailValueText(item)}`)
      .join(', ');
  }
  return String(value);
}

/** The details in French, the reason aside (the result says it): `Droits : users.list, roles.list · Actif : non`. */
export function auditDetailsText(details: Record<string, unknown> | null | undefined): string {
  return Object.entries(details ?? {})
    .filter(([key]) => key !== 'reason')
    .map(([key, value]) => `${DETAIL_LABELS[key] ?? key} : ${detailValueText(value)}`)
    .join(' · ');
}

/** The action codes whose French label contains the text: the free-text search finds "connexion" too. */
export function auditActionsMatching(text: string): AuditAction[] {
  const term = normalizeSearchText(text);
  if (!term) return [];
  return AUDIT_ACTION_CODES.filter((code) => normalizeSearchText(AUDIT_ACTIONS[code]).includes(term));
}

const blankAsUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

/** A period bound: a day (yyyy-mm-dd, the whole day in UTC) or an instant (ISO 8601, as the screen sends its local days). */
const periodBound = z.preprocess(
  blankAsUndefined,
  z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'Date invalide (aaaa-mm-jj ou ISO 8601)' }).optional(),
);

/** The filters of the screen and of the export (`GET audit-logs?action=login&result=failure&from=...`). */
export const auditFiltersSchema = z.object({
  action: z.preprocess(blankAsUndefined, z.enum(AUDIT_ACTION_CODES, { error: 'Action inconnue' }).optional()),
  result: z.preprocess(blankAsUndefined, z.enum(['success', 'failure'], { error: 'Résultat inconnu' }).optional()),
  /** Part of the email of who acted. */
  actor: z.string().trim().max(200).optional(),
  from: periodBound,
  to: periodBound,
  /** Free text: email, target, IP address or action label. */
  search: z.string().trim().max(200).optional(),
});
export type AuditFilters = z.infer<typeof auditFiltersSchema>;

/** The first instant a bound covers, and the first one after it (a day bound covers the whole day). */
export function auditPeriodOf(bound: string): { start: Date; end: Date } {
  if (/^\d{4}-\d{2}-\d{2}$/.test(bound)) {
    const start = new Date(`${bound}T00:00:00.000Z`);
    return { start, end: new Date(start.getTime() + 24 * 60 * 60 * 1000) };
  }
  const start = new Date(bound);
  return { start, end: new Date(start.getTime() + 1) };
}

/** True unless the period ends before it starts. */
export function isAuditPeriodInOrder({ from, to }: Pick<AuditFilters, 'from' | 'to'>): boolean {
  return !from || !to || auditPeriodOf(from).start.getTime() < auditPeriodOf(to).end.getTime();
}
