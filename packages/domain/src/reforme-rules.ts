/** Workflow stages of the architecture §4: where a reform waits. */
export const STAGES = { transmission: 1, validation: 2, publication: 3 } as const;
export type Stage = (typeof STAGES)[keyof typeof STAGES];

export const REFORME_TYPES = ['SECTORIELLE', 'TRANSVERSALE'] as const;
export const ETATS_MOR = [
  { value: 'en_cours', label: 'En cours' },
  { value: 'planifiee', label: 'Planifiée' },
  { value: 'terminee', label: 'Terminée' },
  { value: 'suspendue', label: 'Suspendue' },
] as const;
export type EtatMor = (typeof ETATS_MOR)[number]['value'];

/** The label of an état de mise en œuvre: `etatLabel('en_cours')` is "En cours"; unknown or blank gives "". */
export function etatLabel(value: string | null | undefined): string {
  return ETATS_MOR.find((etat) => etat.value === value)?.label ?? '';
}

/** The label of a reform type: `typeLabel('SECTORIELLE')` is "Sectorielle". */
export function typeLabel(value: string | null | undefined): string {
  return value ? value.charAt(0) + value.slice(1).toLowerCase() : '';
}

/** The choices of a type or état select: `{ value, label }`. */
export const TYPE_OPTIONS = REFORME_TYPES.map((value) => ({ value, label: typeLabel(value) }));
export const ETAT_OPTIONS = ETATS_MOR.map((etat) => ({ value: etat.value, label: etat.label }));

/**
 * The seeded natures (architecture §4), each with a stable code: the dashboard counts by code, so an
 * administrator may rename a label without breaking the counters.
 */
export const NATURES = [
  { code: 'administrative', label: 'Administrative' },
  { code: 'institutionnelle', label: 'Institutionnelle' },
  { code: 'structurelle', label: 'Structurelle' },
] as const;
export type NatureCode = (typeof NATURES)[number]['code'];

/** `formatFrenchDate('2026-01-15')` is `15/01/2026`. */
export function formatFrenchDate(iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-');
  return `${day}/${month}/${year}`;
}

/** The period text of spec §5: periodText('2026-01-15', '2026-12-31') === 'Du 15/01/2026 au 31/12/2026'. */
export function periodText(dateDebut: string, dateFin: string): string {
  return `Du ${formatFrenchDate(dateDebut)} au ${formatFrenchDate(dateFin)}`;
}

/** True when the start date is after the end date (ISO yyyy-mm-dd compare as strings). */
export function isStartAfterEnd(dateDebut: string, dateFin: string): boolean {
  return dateDebut.slice(0, 10) > dateFin.slice(0, 10);
}

/**
 * Validated results over all results, unrounded; undefined when the objective has no results.
 * A deactivated result (`is_active: false`) does not count at all.
 */
export function objectivePercentage(results: ReadonlyArray<{ status: number; is_active?: boolean }>): number | undefined {
  const counted = results.filter((result) => result.is_active !== false);
  if (counted.length === 0) return undefined;
  return (counted.filter((result) => result.status === 1).length / counted.length) * 100;
}

/** Where a new reform starts (architecture §4): at its creator's stage; saisie central's go to publication. */
export function creationStageOf(role: string | undefined): Stage {
  switch (role) {
    case 'validation':
      return STAGES.validation;
    case 'publication':
    case 'saisie central':
      return STAGES.publication;
    default:
      return STAGES.transmission;
  }
}

export const REFORME_MESSAGES = {
  libref: 'Le Libellé de la réforme est requis',
  typeref: 'La portée de la réforme est requise',
  nature_id: 'La nature est requise',
  objectif_glob: "L'objectif est requis",
  popul_cible: 'La population est requise',
  couverture_id: 'La couverture est requise',
  struct_impl: 'Les structures impliquées sont requises',
  date_debut: 'La date de début est requise',
  date_fin: 'La date de fin est requise',
  periodexe: "La période d'execution est requise",
  structure_id: 'La structure est requise',
  dateTitle: 'Date Incorrect',
  dateOrder: 'La date début ne peut être antérieure à la date fin',
  amount: 'Le montant doit être un nombre positif ou nul',
  invalidDate: 'La date doit être au format jj/mm/aaaa',
  published: 'Une réforme publiée ne peut plus être modifiée.',
  fileName: 'Le nom du fichier est requis',
  file: 'Le fichier est requis',
  pdfOnly: 'Prière charger des fichiers pdf',
  fileTitle: 'Chargement de fichier',
  fileUploaded: 'Continuer en chargeant un autre fichier ou fermer le panel',
  pathLikeName: 'Le nom du fichier ne doit pas contenir de chemin',
  unknownFiles: 'Fichier joint inconnu',
  pdfIncomplete: 'Le fichier PDF est incomplet ou endommagé (fin de document absente).',
  pdfActiveContent: 'Le fichier contient du HTML ou du script : seuls les documents PDF sont acceptés.',
  pendingFilesFull:
    "Trop de fichiers en attente d'enregistrement : enregistrez la réforme ou retirez des fichiers avant d'en charger d'autres.",
  created: 'Réforme enregistrée avec succès',
  objectifCreated: 'Objectif enregistré avec succès',
  resultatCreated: 'Résultat attendu enregistré avec succès',
  resultValidated: 'Validation de résultat effectuée avec succès',
  confirmValidateResult: 'Confirmer ce resultat comme valider ?',
  resultNeedsFollowUp: "Un résultat ne peut être validé qu'après au moins une donnée de suivi.",
  resultAlreadyValidated: 'Ce résultat est déjà validé.',
  resultInactive: "Un résultat attendu désactivé, ou dont l'objectif est désactivé, ne peut pas être validé.",
  updated: 'Réforme modifiée avec succès',
  // Screens (spec §2.10, §8)
  errorTitle: 'Réformes',
  objectifsTitle: 'Objectifs',
  listTitle: 'Liste des réformes',
  myListTitle: 'Liste de mes enregistrements',
  searchTitle: 'Recherche de réformes',
  filesTitle: 'Fichiers joints',
  noFiles: 'Aucun fichier joint',
  statusPublished: 'Publiée',
  statusPending: 'En attente',
  noObjectifs: 'Aucun objectif défini',
  noResults: 'Aucun résultat attendu',
} as const;
