import { pageQuerySchema } from './paging.ts';
import { MAX_PER_PAGE } from './reference.ts';
import { HISTORY_EVENT_LABELS, STAGE_LABELS } from './workflow.ts';
import { z } from './zod-locale.ts';

/** What a line of a reform's history is about (issue 32): a row of the reform, or a step of the workflow. */
export const TIMELINE_KINDS = {
  reforme: 'Réforme',
  objectif: 'Objectif',
  resultat: 'Résultat attendu',
  suivi: 'Suivi',
  fichier: 'Pièce jointe',
  workflow: 'Circuit de validation',
} as const;
export type TimelineKind = keyof typeof TIMELINE_KINDS;

/** What happened to the row; a workflow line says its event (HISTORY_EVENT_LABELS). */
export const TIMELINE_ACTIONS: Record<string, string> = {
  create: 'Création',
  update: 'Modification',
  delete: 'Suppression',
  ...HISTORY_EVENT_LABELS,
};

/** The French label of each tracked column (migration 0016), as the forms name it. */
export const TIMELINE_FIELD_LABELS: Record<string, string> = {
  libref: 'Libellé de la réforme',
  typeref: 'Type de réforme (portée)',
  nature_id: 'Nature',
  objectif_glob: 'Objectif global',
  popul_cible: 'Population cible',
  couverture_id: 'Couverture',
  struct_impl: 'Structures impliquées',
  date_debut: 'Date de début',
  date_fin: 'Date de fin',
  periodexe: "Période d'exécution",
  cadreinst_mor: 'Cadre institutionnel',
  etat_mor: 'Etat de mise en œuvre',
  montant_prevu: 'Montant prévu (EUR)',
  montant_trealise: 'Montant réalisé (EUR)',
  difficult: 'Difficultés',
  solution: 'Solutions',
  perspective: 'Perspectives',
  is_active: 'Etat',
  structure_id: 'Structure',
  libobjectif: 'Objectif',
  reforme_id: 'Réforme',
  libresult: 'Résultat attendu',
  indicateur: 'Indicateur',
  valeur_cible: 'Valeur cible',
  valeurref: 'Valeur de référence',
  objectif_id: 'Objectif',
  status: 'Statut',
  taux_realisat: 'Taux de réalisation',
  valeur_realise: 'Valeur réalisée',
  date: 'Date',
  name_file: 'Nom du fichier',
  stage: 'Étape',
};

export const TIMELINE_MESSAGES = {
  tab: 'Historique',
  empty: 'Aucune modification enregistrée pour cette réforme.',
  kindFilter: 'Type de modification',
  allKinds: 'Toutes',
  system: 'Système',
  printWithHistory: "Imprimer avec l'historique",
} as const;

/** Rows of a page when the client names none. */
export const TIMELINE_PER_PAGE = 20;

/** `GET reformes/{id}/history?page=2&kind=objectif`: always a page, newest first. */
export const timelineQuerySchema = pageQuerySchema.extend({
  kind: z.enum(Object.keys(TIMELINE_KINDS) as [TimelineKind, ...TimelineKind[]], { error: 'Type de modification inconnu' }).optional(),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(TIMELINE_PER_PAGE),
});
export type TimelineQuery = z.infer<typeof timelineQuerySchema>;

/** A value as the timeline shows it: a workflow stage by its name, a state by its word. */
export function timelineValueText(field: string | null, value: string | null): string {
  if (value === null) return '—';
  if (field === 'stage') return STAGE_LABELS[Number(value)] ?? value;
  if (field === 'is_active') return value === 'true' ? 'Actif' : 'Inactif';
  return value;
}
