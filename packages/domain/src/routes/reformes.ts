import { pageQuerySchema, searchBodySchema } from '../paging.ts';
import type { Action } from '../permissions.ts';
import { idParamsSchema, stateParamSchema } from '../reference.ts';
import { reformeFiltersSchema } from '../reforme.ts';
import { listShape, messageShape } from '../shapes/envelope.ts';
import { reformeDetailAnswer, reformeRowShape } from '../shapes/reformes.ts';
import { limitedText } from '../text-fields.ts';
import { ID_MAX, TEXT_LIMITS } from '../text-limits.ts';
import { z } from '../zod-locale.ts';
import { routesOf } from './route.ts';

/** A reform's list: a page (or the whole list) with the list filters. */
export const reformeListQuerySchema = pageQuerySchema.extend(reformeFiltersSchema.shape);

/** Create and update: the body's rules depend on the caller's role (reformeSchemaFor), checked by the handler. */
export const reformeBodySchema = z.record(z.string(), z.unknown());

/** Transmit (-1) a reform to the next stage, or return (1) it to the previous one, with an instruction. */
export const affectationSchema = z.object({
  reforme_id: z.coerce
    .number({ error: 'La réforme est requise' })
    .int()
    .positive({ error: 'La réforme est requise' })
    .max(ID_MAX, { error: 'La réforme est requise' }),
  sens: z.coerce.number().refine((sens) => sens === -1 || sens === 1, { error: 'Le sens doit valoir -1 (transmettre) ou 1 (retourner)' }),
  instruction: limitedText(TEXT_LIMITS.longText).nullish(),
});
export type AffectationInput = z.infer<typeof affectationSchema>;

const can = <A extends Action>(action: A) => ({ feature: 'reformes', action }) as const;
const publication = { feature: 'publication', action: 'edit' } as const;
const rows = listShape(reformeRowShape);

/** Spec §7 "Reforms": lists by scope, detail, create, update, delete, state, search, publish/unpublish; the circuit. */
export const REFORMES_ROUTES = {
  ...routesOf(['Réformes'], {
    list: {
      method: 'GET',
      path: '/reformes',
      access: can('list'),
      summary: 'Liste filtrée (structure, nature, couverture, type, texte)',
      querystring: reformeListQuerySchema,
      answer: rows,
    },
    myList: {
      method: 'GET',
      path: '/reformes/users/get-my-list',
      access: can('list'),
      summary: 'Mes enregistrements (filtrés, recherche)',
      querystring: reformeListQuerySchema,
      answer: rows,
    },
    byRole: {
      method: 'GET',
      path: '/reformes/users/get-by-role',
      access: can('list'),
      summary: "Réformes à l'étape de mon rôle (filtrées, recherche)",
      querystring: reformeListQuerySchema,
      answer: rows,
    },
    search: {
      method: 'POST',
      path: '/reformes-search',
      access: can('list'),
      summary: 'Recherche paginée',
      querystring: pageQuerySchema,
      body: searchBodySchema,
      answer: rows,
    },
    searchLegacy: {
      method: 'POST',
      path: '/reformes/-search',
      access: can('list'),
      summary: 'Recherche paginée',
      querystring: pageQuerySchema,
      body: searchBodySchema,
      answer: rows,
    },
    detail: {
      method: 'GET',
      path: '/reformes/:id',
      access: can('show'),
      summary: 'Fiche détaillée',
      params: idParamsSchema,
      answer: reformeDetailAnswer,
    },
    create: {
      method: 'POST',
      path: '/reformes',
      status: 201,
      access: can('add'),
      summary: 'Création',
      body: reformeBodySchema,
      answer: reformeDetailAnswer,
    },
    update: {
      method: 'PUT',
      path: '/reformes/:id',
      access: can('edit'),
      summary: 'Modification',
      params: idParamsSchema,
      body: reformeBodySchema,
      answer: reformeDetailAnswer,
    },
    remove: {
      method: 'DELETE',
      path: '/reformes/:id',
      access: can('delete'),
      summary: 'Suppression',
      params: idParamsSchema,
      answer: messageShape,
    },
    setState: {
      method: 'GET',
      path: '/reformes/:id/state/:state',
      access: can('status'),
      summary: 'Activer / désactiver',
      params: stateParamSchema,
      answer: reformeDetailAnswer,
    },
    publish: {
      method: 'GET',
      path: '/reformes/state/publish/:id',
      access: publication,
      summary: 'Publier',
      params: idParamsSchema,
      answer: reformeDetailAnswer,
    },
    unpublish: {
      method: 'GET',
      path: '/reformes/state/unpublish/:id',
      access: publication,
      summary: 'Arrêter la publication',
      params: idParamsSchema,
      answer: reformeDetailAnswer,
    },
  }),
  ...routesOf(['Circuit'], {
    affectation: {
      method: 'POST',
      path: '/affectations',
      access: { feature: 'affectations', action: 'add' },
      summary: 'Transmettre (-1) ou retourner (1)',
      body: affectationSchema,
      answer: reformeDetailAnswer,
    },
  }),
};
