import { pageQuerySchema } from '../paging.ts';
import { idParamsSchema } from '../reference.ts';
import { reformeFiltersSchema } from '../reforme.ts';
import { envelopeShape, pagedShape } from '../shapes/envelope.ts';
import { publicFilterOptionsShape, publicReformeDetailAnswer, publicReformeShape } from '../shapes/public.ts';
import { z } from '../zod-locale.ts';
import { routesOf } from './route.ts';

const access = 'public';

/** The public list's page: always paged, 10 rows unless asked otherwise, at most 100. */
export const publicPageQuerySchema = reformeFiltersSchema.extend({
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  page: pageQuerySchema.shape.page,
});

/** `/accueil` reads these without signing in: published, active reforms only, public fields only. */
export const PUBLIC_ROUTES = routesOf(['Public'], {
  page: {
    method: 'GET',
    path: '/reformes/public/suivi-result',
    access,
    summary: 'Réformes publiées (filtres, recherche, pages)',
    querystring: publicPageQuerySchema,
    answer: pagedShape(publicReformeShape),
  },
  filters: {
    method: 'GET',
    path: '/reformes/public/filters',
    access,
    summary: 'Options des filtres',
    answer: envelopeShape(publicFilterOptionsShape),
  },
  exportJson: {
    method: 'GET',
    path: '/reformes/public/export.json',
    access,
    summary: 'Données ouvertes (JSON)',
    querystring: reformeFiltersSchema,
    file: 'application/json; charset=utf-8',
  },
  exportCsv: {
    method: 'GET',
    path: '/reformes/public/export.csv',
    access,
    summary: 'Données ouvertes (CSV)',
    querystring: reformeFiltersSchema,
    file: 'text/csv; charset=utf-8',
  },
  detail: {
    method: 'GET',
    path: '/reformes/public/:id',
    access,
    summary: "Fiche publique d'une réforme publiée",
    params: idParamsSchema,
    answer: publicReformeDetailAnswer,
  },
});
