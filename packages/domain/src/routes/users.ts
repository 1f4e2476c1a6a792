import { pageQuerySchema, searchBodySchema } from '../paging.ts';
import type { Action } from '../permissions.ts';
import { idParamsSchema, resetPasswordSchema, stateParamSchema, userSchema } from '../reference.ts';
import { userAnswer, userShape } from '../shapes/auth.ts';
import { listShape, messageShape } from '../shapes/envelope.ts';
import { routesOf } from './route.ts';

const can = <A extends Action>(action: A) => ({ feature: 'users', action }) as const;

/** Spec §7 "Users". */
export const USERS_ROUTES = routesOf(['Comptes utilisateurs'], {
  list: {
    method: 'GET',
    path: '/users',
    access: can('list'),
    summary: 'Liste des utilisateurs',
    querystring: pageQuerySchema,
    answer: listShape(userShape),
  },
  search: {
    method: 'POST',
    path: '/users-search',
    access: can('list'),
    summary: 'Recherche paginée',
    querystring: pageQuerySchema,
    body: searchBodySchema,
    answer: listShape(userShape),
  },
  show: { method: 'GET', path: '/users/:id', access: can('show'), summary: 'Détail', params: idParamsSchema, answer: userAnswer },
  create: {
    method: 'POST',
    path: '/users',
    status: 201,
    access: can('add'),
    summary: 'Création (mot de passe temporaire envoyé par mail)',
    body: userSchema,
    answer: userAnswer,
  },
  update: {
    method: 'PUT',
    path: '/users/:id',
    access: can('edit'),
    summary: 'Modification',
    params: idParamsSchema,
    body: userSchema,
    answer: userAnswer,
  },
  remove: {
    method: 'DELETE',
    path: '/users/:id',
    access: can('delete'),
    summary: 'Suppression',
    params: idParamsSchema,
    answer: messageShape,
  },
  setState: {
    method: 'GET',
    path: '/users/:id/state/:state',
    access: can('status'),
    summary: 'Activer / bloquer',
    params: stateParamSchema,
    answer: userAnswer,
  },
  resetPassword: {
    method: 'POST',
    path: '/reset-password',
    access: can('edit'),
    summary: 'Réinitialise le mot de passe (temporaire)',
    body: resetPasswordSchema,
    answer: messageShape,
  },
});
