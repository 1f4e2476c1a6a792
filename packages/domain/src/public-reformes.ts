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

/** The open-data downloads' refusals (issue 28). */
export const PUBLIC_EXPORT_MESSAGES = {
  busy: 'Trop de téléchargements des données ouvertes sont en cours. Réessayez dans quelques secondes.',
  busyForClient: "Vous avez déjà deux téléchargements des données ouvertes en cours. Réessayez quand l'un d'eux sera terminé.",
  tooMany: (seconds: number) =>
    `Trop de téléchargements des données ouvertes depuis votre adresse. Réessayez dans ${seconds} seconde${seconds > 1 ? 's' : ''}.`,
};
