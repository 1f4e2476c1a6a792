/** The application's name, last in every page title. */
export const APP_NAME = 'Réformes';

/** "Réformes publiées — Réformes": what a tab, a bookmark and a search result show. */
export function pageTitle(screen?: string): string {
  return screen ? `${screen} — ${APP_NAME}` : APP_NAME;
}

export interface PageHead {
  title: string;
  description: string;
}

/**
 * Title and meta description of the screens a visitor reaches without signing in (issue 20): written in the
 * page the server sends (apps/web/build/pages.ts) and kept by the screen once it runs (usePageHead).
 */
export const PAGE_HEADS = {
  default: {
    title: APP_NAME,
    description: "Réformes : suivi public des réformes de l'administration, leurs objectifs, résultats attendus et avancement.",
  },
  publicList: {
    title: pageTitle('Réformes publiées'),
    description:
      "Les réformes publiées par l'administration : portée, nature, structure en charge, objectifs et avancement, à rechercher, filtrer et télécharger en données ouvertes.",
  },
  publicReforme: {
    title: pageTitle('Réforme publiée'),
    description: 'Une réforme publiée : ses informations générales, ses objectifs, les résultats attendus et leur avancement mesuré.',
  },
  login: {
    title: pageTitle('Connexion'),
    description: "Connexion à l'espace de saisie, de validation et de publication des réformes de l'administration.",
  },
} as const satisfies Record<string, PageHead>;
