/** Every French text that both sides show, written once. Spec wording is kept verbatim, quirks included. */
export const MESSAGES = {
  loading: 'Chargement...',
  notFoundPage: "Page non trouvée. La page à laquelle vous essayez d'accéder n'existe pas !",
  undefinedName: 'Non défini',
  noSelection: 'Aucun élément selectionné',
  operationRunning: 'Opération en cours',
  unknownError: "Une erreur non identifiée s'est produit.",

  // Auth screens (spec §2.4, §8)
  loginTitle: 'Connexion',
  loginSuccess: 'Connexion réussie',
  logoutSuccess: 'Déconnexion réussie',
  forgotSent: 'Email envoyé !',
  forgotSentDetail: 'Vérifiez votre boîte email pour réinitialiser votre mot de passe.',
  forgotFailed: 'Connexion échouée',
  forgotAnswer: 'Si un compte existe pour cet email, un lien de réinitialisation vient de lui être envoyé.',
  passwordChanged: 'Changement de mot passe réussi',
  passwordChangeFailed: 'Changement de mot passe échoué',
  firstPasswordTitle: 'Première connexion',
  profileUpdated: 'Profile mis à jour avec succès',
  profileUpdatedTitle: 'Mise à jour',

  // Validation (spec §5)
  emailRequired: "L'email est requis",
  emailInvalid: "L'email n'est pas valide",
  passwordRequired: 'Le mot de passe est requis',
  passwordConfirmationRequired: 'La confirmation du mot de passe est requise',
  passwordMin: 'Le mot de passe doit contenir au moins 8 caractères',
  passwordsDiffer: 'Nouveaux mots de passe non identique',
  lastnameRequired: 'Le nom est requis',
  firstnameRequired: 'Les prénoms sont requis',
  phoneRequired: 'Le téléphone est requis',
  phoneDigits: 'Le téléphone ne doit contenir que des chiffres',
  fieldRequired: 'Ce champ est requis',
  invalidInput: 'Les données envoyées sont invalides.',

  // Server answers
  invalidCredentials: 'Email ou mot de passe incorrect.',
  accountBlocked: "Votre compte est bloqué. Contactez l'administrateur.",
  tooManyAttempts: 'Trop de tentatives de connexion. Réessayez dans quelques minutes.',
  tooManyRequests: 'Trop de requêtes. Réessayez dans quelques instants.',
  unauthenticated: 'Session expirée ou absente, veuillez vous reconnecter.',
  forbidden: "Vous n'avez pas les droits nécessaires pour effectuer cette action.",
  mustChangePassword: 'Vous devez changer votre mot de passe temporaire avant de continuer.',
  notFound: "L'élément demandé est introuvable.",
  routeNotFound: "Cette adresse de l'API n'existe pas.",
  conflict: 'Cette opération est en conflit avec les données existantes.',
  internalError: 'Une erreur interne est survenue. Réessayez plus tard.',
  invalidRefreshToken: 'Session invalide, veuillez vous reconnecter.',
  invalidResetToken: 'Ce lien de réinitialisation est invalide ou a expiré.',
  emailTaken: 'Cet email est déjà utilisé par un autre compte.',
  fileTooLarge: 'Le fichier est trop volumineux.',
  success: 'Opération effectuée avec succès',
  listed: 'Liste récupérée avec succès',
  logoutDone: 'Déconnexion réussie',
  healthy: 'Service disponible',
} as const;

/** Titles of the error alerts and toasts, by feature (spec §8). */
export const TITLES = {
  login: 'Connexion',
  firstPassword: 'Première connexion',
  users: 'Gestion des utilisateurs',
  structures: 'Gestion des structures',
  dashboard: 'Tableau de bord',
  account: 'Mon compte',
  profile: 'Mise à jour',
} as const;
