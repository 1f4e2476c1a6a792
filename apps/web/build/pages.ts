import { PAGE_HEADS, type PageHead } from '@reformes/domain';

export interface PageEntry {
  /** Paths as the router writes them; `:name` stands for one segment. */
  paths: string[];
  /** The screen's module, as routes.tsx loads it: its chunks are preloaded with the entry. */
  module: string;
  head: PageHead;
  /**
   * API answers the screen asks for first, fetched with the page (`<link rel="preload" as="fetch">`) when the
   * address has no query string (a filtered list asks for another page). The screen must ask for exactly these
   * URLs, with the same mode: e2e/journeys/public-performance.spec.ts checks that each is fetched once.
   */
  data?: string[];
  /** The frame of src/app/prerender.tsx the page holds before the script runs. */
  frame?: string;
}

/** The screens a visitor reaches without signing in, each sent as its own page (issue 20). */
export const PAGES: PageEntry[] = [
  {
    // / leads to the list: the same page, fetched while the router redirects.
    paths: ['/', '/accueil'],
    module: 'src/features/public/public-reformes-page.tsx',
    head: PAGE_HEADS.publicList,
    data: ['/api/v1/reformes/public/suivi-result?per_page=10&page=1', '/api/v1/reformes/public/filters'],
    frame: 'publicList',
  },
  {
    paths: ['/accueil/reformes/:id'],
    module: 'src/features/public/public-reforme-page.tsx',
    head: PAGE_HEADS.publicReforme,
  },
  {
    paths: ['/auth/login', '/login', '/admin/login'],
    module: 'src/features/auth/login-page.tsx',
    head: PAGE_HEADS.login,
    frame: 'login',
  },
];
