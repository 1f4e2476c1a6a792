/** The public page of published reforms (spec §2.5, architecture §4 "Public page"). */
export const PUBLIC_MESSAGES = {
  title: 'Réformes publiées',
  signIn: 'Se connecter',
  noMatch: 'Aucun résultat trouvé',
  reset: 'Réinitialiser',
  downloadCsv: 'Télécharger (CSV)',
  downloadJson: 'Télécharger (JSON)',
  openData: 'Données ouvertes',
  backToList: 'Retour à la liste',
  notFound: "Cette réforme n'existe pas ou n'est pas publiée.",
  generalInfo: 'Informations générales',
  objectives: 'Objectifs et résultats attendus',
  noObjectives: 'Aucun objectif publié pour cette réforme',
  noLatest: 'Aucune valeur mesurée',
} as const;

/** Open-data downloads under way at once for one client, per process (issue 40): a few slow readers cannot hold every place. */
export const PUBLIC_EXPORTS_PER_CLIENT = 2;

/** The open-data downloads' refusals (issues 28 and 40). */
export const PUBLIC_EXPORT_MESSAGES = {
  busy: 'Trop de téléchargements des données ouvertes sont en cours. Réessayez dans quelques secondes.',
  busyForClient: `Vous avez déjà ${PUBLIC_EXPORTS_PER_CLIENT} téléchargements des données ouvertes en cours. Réessayez quand l'un d'eux sera terminé.`,
  tooMany: (seconds: number) =>
    `Trop de téléchargements des données ouvertes depuis votre adresse. Réessayez dans ${seconds} seconde${seconds > 1 ? 's' : ''}.`,
};
