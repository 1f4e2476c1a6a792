import { pageQuerySchema } from '../paging.ts';
import type { Action } from '../permissions.ts';
import { idParamsSchema } from '../reference.ts';
import { listShape, messageShape } from '../shapes/envelope.ts';
import { suiviRecordAnswer, suiviRecordShape, suiviReformeShape } from '../shapes/reformes.ts';
import { suiviSchema } from '../suivi.ts';
import { searchTextField } from '../text-fields.ts';
import { ID_MAX } from '../text-limits.ts';
import { z } from '../zod-locale.ts';
import { routesOf } from './route.ts';

const id = z.coerce.number().int().positive().max(ID_MAX);

/** The follow-up view: one reform (`reforme_id`), or a page of them, searched. */
export const suiviReformesQuerySchema = pageQuerySchema.extend({ reforme_id: id.optional(), search: searchTextField });

/** The follow-up records of one result. */
export const suiviRecordsQuerySchema = z.object({ result_id: id });

const can = <A extends Action>(action: A) => ({ feature: 'suivi-results', action }) as const;

/** Spec §7 `suivi-results/` and `reformes/users/get-suivi-result`. */
export const SUIVI_ROUTES = routesOf(['Données de suivi'], {
  reformes: {
    method: 'GET',
    path: '/reformes/users/get-suivi-result',
    access: can('list'),
    summary: 'Réformes (une, ou une page recherchée), avec objectifs, résultats et suivis imbriqués',
    querystring: suiviReformesQuerySchema,
    answer: listShape(suiviReformeShape),
  },
  records: {
    method: 'GET',
    path: '/suivi-results',
    access: can('list'),
    summary: "Suivis d'un résultat",
    querystring: suiviRecordsQuerySchema,
    answer: listShape(suiviRecordShape),
  },
  show: {
    method: 'GET',
    path: '/suivi-results/:id',
    access: can('show'),
    summary: "Détail d'une donnée de suivi",
    params: idParamsSchema,
    answer: suiviRecordAnswer,
  },
  create: {
    method: 'POST',
    path: '/suivi-results',
    status: 201,
    access: can('add'),
    summary: 'Enregistrer une donnée de suivi',
    body: suiviSchema,
    answer: suiviRecordAnswer,
  },
  remove: {
    method: 'DELETE',
    path: '/suivi-results/:id',
    access: can('delete'),
    summary: 'Retirer une donnée de suivi',
    params: idParamsSchema,
    answer: messageShape,
  },
});
