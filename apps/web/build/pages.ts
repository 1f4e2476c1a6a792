import path from 'node:path';
import { PAGE_HEADS, type PageHead, pageTitle } from '@reformes/domain';

export interface PageEntry {
  /** Paths as the router writes them; `:name` stands for one segment. */
  paths: string[];
  /** The page's script (src/pages/entries/*.ts): a build entry of its own, without React (issue 34). */
  entry: string;
  head: PageHead;
  /**
   * API answers the screen asks for first, fetched with the page (`<link rel="preload" as="fetch">`) when the
   * address has no query string (a filtered list asks for another page). The script must ask for exactly these
   * URLs, with the same mode: e2e/journeys/public-performance.spec.ts checks that each is fetched once.
   */
  data?: string[];
  /** The body of src/pages/prerender.ts the page holds. */
  body: string;
}

/** The screens a visitor reaches without signing in, each sent as its own page with its own small script (issues 20, 34). */
export const PAGES: PageEntry[] = [
  {
    // / leads to the list: the server sends the list's page there too (the address stays /, see public-list.ts).
    paths: ['/', '/accueil'],
    entry: 'src/pages/entries/public-list.ts',
    head: PAGE_HEADS.publicList,
    data: ['/api/v1/reformes/public/suivi-result?per_page=10&page=1', '/api/v1/reformes/public/filters'],
    body: 'publicList',
  },
  {
    paths: ['/accueil/reformes/:id'],
    entry: 'src/pages/entries/public-reforme.ts',
    head: PAGE_HEADS.publicReforme,
    body: 'publicReforme',
  },
  {
    paths: ['/auth/login', '/login', '/admin/login'],
    entry: 'src/pages/entries/login.ts',
    head: PAGE_HEADS.login,
    body: 'login',
  },
  {
    paths: ['/auth/forget-password'],
    entry: 'src/pages/entries/forgot-password.ts',
    head: { title: pageTitle('Mot de passe oublié ?'), description: PAGE_HEADS.default.description },
    body: 'forgotPassword',
  },
];

/** The build's inputs: the back office's index.html, and each page's script by its page's name. */
export const pageInputs = (pages: PageEntry[], root: string): Record<string, string> =>
  Object.fromEntries(pages.map((page) => [pageName(page), path.resolve(root, page.entry)]));

export const pageName = (page: PageEntry) => page.entry.replace(/^.*\//, '').replace(/\.tsx?$/, '');
