import type { z } from 'zod';
import { pageQuerySchema, searchBodySchema } from '../paging.ts';
import type { Action, FeatureName } from '../permissions.ts';
import {
  coverSchema,
  entitySchema,
  idParamsSchema,
  natureSchema,
  roleSchema,
  sectorSchema,
  stateParamSchema,
  structureSchema,
} from '../reference.ts';
import { envelopeShape, listShape, messageShape } from '../shapes/envelope.ts';
import { coverShape, entityShape, natureShape, roleShape, sectorShape, structureShape } from '../shapes/reference.ts';
import { routesOf } from './route.ts';

/**
 * The routes of one reference list (spec §7 "Reference resources"): list (whole or paginated), `POST {path}-search`,
 * show, create, update, delete and state 0/1, each behind the resource's feature with the matching action.
 * `crudRouteTable('sectors', 'sectors', 'Secteurs', sectorSchema, sectorShape)`.
 */
export function crudRouteTable<const P extends string, const F extends FeatureName, S extends z.ZodObject, R extends z.ZodType>(
  path: P,
  feature: F,
  tag: string,
  schema: S,
  row: R,
) {
  const can = <A extends Action>(action: A) => ({ feature, action });
  const list = listShape(row);
  const one = envelopeShape(row);
  return routesOf([tag], {
    list: { method: 'GET', path: `/${path}`, access: can('list'), summary: `Liste : ${tag}`, querystring: pageQuerySchema, answer: list },
    search: {
      method: 'POST',
      path: `/${path}-search`,
      access: can('list'),
      summary: `Recherche paginée : ${tag}`,
      querystring: pageQuerySchema,
      body: searchBodySchema,
      answer: list,
    },
    show: { method: 'GET', path: `/${path}/:id`, access: can('show'), summary: `Détail : ${tag}`, params: idParamsSchema, answer: one },
    create: { method: 'POST', path: `/${path}`, status: 201, access: can('add'), summary: `Création : ${tag}`, body: schema, answer: one },
    update: {
      method: 'PUT',
      path: `/${path}/:id`,
      access: can('edit'),
      summary: `Modification : ${tag}`,
      params: idParamsSchema,
      body: schema,
      answer: one,
    },
    remove: {
      method: 'DELETE',
      path: `/${path}/:id`,
      access: can('delete'),
      summary: `Suppression : ${tag}`,
      params: idParamsSchema,
      answer: messageShape,
    },
    setState: {
      method: 'GET',
      path: `/${path}/:id/state/:state`,
      access: can('status'),
      summary: `Activation / désactivation : ${tag}`,
      params: stateParamSchema,
      answer: one,
    },
  });
}

/** The routes of a reference list whose create and update bodies follow `S`. */
export type CrudRouteTable<S extends z.ZodObject = z.ZodObject> = ReturnType<typeof crudRouteTable<string, FeatureName, S, z.ZodType>>;

/** The reference lists of spec §2.9. */
export const ROLES_ROUTES = crudRouteTable('roles', 'roles', 'Rôles', roleSchema, roleShape);
export const SECTORS_ROUTES = crudRouteTable('sectors', 'sectors', 'Secteurs', sectorSchema, sectorShape);
export const STRUCTURES_ROUTES = crudRouteTable('structures', 'structures', 'Structures', structureSchema, structureShape);
export const NATURES_ROUTES = crudRouteTable('natures', 'natures', 'Natures', natureSchema, natureShape);
export const COVERS_ROUTES = crudRouteTable('covers', 'covers', 'Couvertures', coverSchema, coverShape);
export const ENTITIES_ROUTES = crudRouteTable('entities', 'entities', 'Entités administratives', entitySchema, entityShape);
