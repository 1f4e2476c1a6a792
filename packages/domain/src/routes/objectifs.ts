import { pageQuerySchema, searchBodySchema } from '../paging.ts';
import type { Action, FeatureName } from '../permissions.ts';
import { idParamsSchema, stateParamSchema } from '../reference.ts';
import { objectifSchema, resultatPayloadSchema } from '../reforme.ts';
import { listShape, messageShape } from '../shapes/envelope.ts';
import { objectifAnswer, objectifRowShape, objectifShape, resultatAnswer, resultatListRowShape } from '../shapes/reformes.ts';
import { searchTextField } from '../text-fields.ts';
import { ID_MAX } from '../text-limits.ts';
import { z } from '../zod-locale.ts';
import { routesOf } from './route.ts';

const optionalId = z.coerce.number().int().positive().max(ID_MAX).optional();

/** The objectives' list: a page, searched, of one reform or of every reform in scope. */
export const objectifListQuerySchema = pageQuerySchema.extend({ search: searchTextField, reforme_id: optionalId });

/** The results' list: a page, searched, of one objective or of every objective in scope. */
export const resultatListQuerySchema = pageQuerySchema.extend({ search: searchTextField, objectif_id: optionalId });

/** A result's update: its fields (resultatPayloadSchema), or `{status: 1}` to validate it; the handler tells which. */
export const resultatUpdateBodySchema = z.record(z.string(), z.unknown());

const can = <const F extends FeatureName, A extends Action>(feature: F, action: A) => ({ feature, action }) as const;

/** Spec §7 `objectifs/` and `resultats/`. */
export const OBJECTIFS_ROUTES = {
  ...routesOf(['Objectifs'], {
    listObjectifs: {
      method: 'GET',
      path: '/objectifs',
      access: can('objectifs', 'list'),
      summary: 'Liste (réforme, recherche)',
      querystring: objectifListQuerySchema,
      answer: listShape(objectifRowShape),
    },
    searchObjectifs: {
      method: 'POST',
      path: '/objectifs-search',
      access: can('objectifs', 'list'),
      summary: 'Recherche paginée',
      querystring: pageQuerySchema,
      body: searchBodySchema,
      answer: listShape(objectifRowShape),
    },
    objectifsOfReforme: {
      method: 'GET',
      path: '/objectifs/by-reforme/:id',
      access: can('objectifs', 'list'),
      summary: "Objectifs d'une réforme",
      params: idParamsSchema,
      answer: listShape(objectifShape),
    },
    showObjectif: {
      method: 'GET',
      path: '/objectifs/:id',
      access: can('objectifs', 'show'),
      summary: "Détail d'un objectif",
      params: idParamsSchema,
      answer: objectifAnswer,
    },
    createObjectif: {
      method: 'POST',
      path: '/objectifs',
      status: 201,
      access: can('objectifs', 'add'),
      summary: "Création d'un objectif",
      body: objectifSchema,
      answer: objectifAnswer,
    },
    updateObjectif: {
      method: 'PUT',
      path: '/objectifs/:id',
      access: can('objectifs', 'edit'),
      summary: "Modification d'un objectif",
      params: idParamsSchema,
      body: objectifSchema,
      answer: objectifAnswer,
    },
    removeObjectif: {
      method: 'DELETE',
      path: '/objectifs/:id',
      access: can('objectifs', 'delete'),
      summary: "Suppression d'un objectif",
      params: idParamsSchema,
      answer: messageShape,
    },
    setObjectifState: {
      method: 'GET',
      path: '/objectifs/:id/state/:state',
      access: can('objectifs', 'status'),
      summary: 'Activer / désactiver un objectif',
      params: stateParamSchema,
      answer: objectifAnswer,
    },
  }),
  ...routesOf(['Résultats attendus'], {
    listResultats: {
      method: 'GET',
      path: '/resultats',
      access: can('resultats', 'list'),
      summary: 'Liste (objectif, recherche)',
      querystring: resultatListQuerySchema,
      answer: listShape(resultatListRowShape),
    },
    searchResultats: {
      method: 'POST',
      path: '/resultats-search',
      access: can('resultats', 'list'),
      summary: 'Recherche paginée',
      querystring: pageQuerySchema,
      body: searchBodySchema,
      answer: listShape(resultatListRowShape),
    },
    showResultat: {
      method: 'GET',
      path: '/resultats/:id',
      access: can('resultats', 'show'),
      summary: "Détail d'un résultat attendu",
      params: idParamsSchema,
      answer: resultatAnswer,
    },
    createResultat: {
      method: 'POST',
      path: '/resultats',
      status: 201,
      access: can('resultats', 'add'),
      summary: "Création d'un résultat attendu",
      body: resultatPayloadSchema,
      answer: resultatAnswer,
    },
    // Spec §7: validating a result is "an update with {status: 1}" — a right of its own (publication).
    updateResultat: {
      method: 'PUT',
      path: '/resultats/:id',
      access: { anyOf: [can('resultats', 'edit'), can('resultats-validation', 'edit')] },
      summary: 'Modification, ou validation avec {status: 1}',
      params: idParamsSchema,
      body: resultatUpdateBodySchema,
      answer: resultatAnswer,
    },
    removeResultat: {
      method: 'DELETE',
      path: '/resultats/:id',
      access: can('resultats', 'delete'),
      summary: "Suppression d'un résultat attendu",
      params: idParamsSchema,
      answer: messageShape,
    },
    setResultatState: {
      method: 'GET',
      path: '/resultats/:id/state/:state',
      access: can('resultats', 'status'),
      summary: 'Activer / désactiver un résultat attendu',
      params: stateParamSchema,
      answer: resultatAnswer,
    },
  }),
};
