/**
 * Sign-in with the administration's directory (OpenID Connect, issue 42): its French texts and what the server's
 * callback hands the sign-in page (its schema is in shapes/directory.ts: this module stays free of zod, for the sign-in
 * page's first script). One source for the server, the sign-in page and the back office.
 */

/**
 * `GET auth/options` (DIRECTORY_ROUTES.options takes its method, path and access from here): the sign-in page asks it
 * as it loads, from a script that must not pull the route table's shapes (zod) in.
 */
export const SIGN_IN_OPTIONS_ROUTE = { method: 'GET', path: '/auth/options', access: 'public' } as const;
/** Its X-Action header, as `actionOf` gives it for a public GET (directory.test.ts holds the two together). */
export const SIGN_IN_OPTIONS_ACTION = 'show';

/** The sign-in button's text when OIDC_LABEL is not set. */
export const DEFAULT_DIRECTORY_LABEL = "Se connecter avec l'annuaire de l'administration";

/** The path the provider sends the browser back to (`${PUBLIC_URL}/auth/oidc/callback`): a page, not an API route. */
export const DIRECTORY_CALLBACK_PATH = '/auth/oidc/callback';
/** The id of the `<script type="application/json">` in which the callback's page carries its outcome. */
export const DIRECTORY_OUTCOME_ELEMENT_ID = 'directory-outcome';
/** Where a dance started from « Mon compte » comes back to. */
export const ACCOUNT_PAGE_PATH = '/admin/user-account?tab=directory';

export const DIRECTORY_MESSAGES = {
  linkButton: "Lier à l'annuaire",
  unlinkButton: "Délier de l'annuaire",
  adminUnlinkButton: "Supprimer le lien avec l'annuaire",
  sectionTitle: 'Annuaire',
  notLinked: "Ce compte n'est pas lié à l'annuaire.",
  linked: "Votre compte est lié à l'annuaire.",
  unlinked: "Le lien avec l'annuaire est supprimé.",
  unlinkConfirm: "Supprimer le lien entre ce compte et l'annuaire ? La connexion par l'annuaire ne l'atteindra plus.",
  noAccount:
    "Aucun compte de Réformes n'est lié à votre identité de l'annuaire. Demandez à un administrateur de Réformes de créer votre compte ou de le lier à l'annuaire.",
  pendingAccount:
    'Votre compte est en attente : un administrateur doit lui attribuer un rôle et une structure dans « Comptes utilisateurs » avant que vous puissiez vous connecter.',
  emailNotVerified:
    "L'annuaire n'a pas confirmé votre adresse e-mail : votre identité ne peut pas être liée à un compte. Demandez à un administrateur de Réformes de lier votre compte.",
  danceFailed: "La connexion avec l'annuaire a échoué ou a expiré. Recommencez.",
  acrTooLow: "L'annuaire n'a pas confirmé le niveau d'authentification demandé. Recommencez avec une authentification plus forte.",
  providerDown: "L'annuaire ne répond pas. Réessayez dans quelques instants.",
  identityTaken: "Cette identité de l'annuaire est déjà liée à un autre compte.",
  alreadyLinked: "Ce compte est déjà lié à l'annuaire : supprimez d'abord le lien.",
  unlinkNeedsPassword:
    "Ce compte n'a pas de mot de passe : sans l'annuaire, vous ne pourriez plus vous connecter. Définissez d'abord un mot de passe avec « Mot de passe oublié ? ».",
  passwordSignInAdminsOnly: "La connexion par mot de passe est réservée aux administrateurs. Utilisez le bouton de l'annuaire.",
  passwordFormAdminsOnly: 'Connexion par mot de passe (administrateurs)',
  notConfigured: "La connexion par l'annuaire n'est pas configurée.",
  notLinkedYet: "Ce compte n'est pas lié à l'annuaire.",
  logoutTokenRefused: "Jeton de déconnexion de l'annuaire refusé",
} as const;
