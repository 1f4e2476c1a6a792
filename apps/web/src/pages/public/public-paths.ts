/** The public routes' paths under API_BASE (PUBLIC_ROUTES, whose schemas this page does without: public-list.test.ts compares them). */
export const PUBLIC_PATHS = {
  page: 'reformes/public/suivi-result',
  filters: 'reformes/public/filters',
  detail: (id: number) => `reformes/public/${id}`,
  export: (format: 'csv' | 'json') => `reformes/public/export.${format}`,
};
export const PAGE_SIZE = 10;

/** Where "Retour à la liste" of a reform's page leads: the list as it was filtered when the reform was opened. */
export const fromKey = (id: number) => `public_from_${id}`;
