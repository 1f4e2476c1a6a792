import { pageQuerySchema, searchBodySchema } from '../paging.ts';
import type { Action } from '../permissions.ts';
import { booleanish, idParamsSchema, stateParamSchema } from '../reference.ts';
import { backupAnswer, backupShape, backupsAnswer } from '../shapes/backups.ts';
import { listShape, messageShape } from '../shapes/envelope.ts';
import { limitedText, searchTextField } from '../text-fields.ts';
import { TEXT_LIMITS } from '../text-limits.ts';
import { z } from '../zod-locale.ts';
import { routesOf } from './route.ts';

/** Backup folders under BACKUP_DIR, as the download paths of spec §7 name them. */
export const BACKUP_FOLDERS = { doc: 'docs', db: 'db_data' } as const;

/** The list of backups: whole, or a page, optionally searched. */
export const backupListQuerySchema = pageQuerySchema.extend({ search: searchTextField });

/** `/backups-by-state/:state`: `1` active, `0` inactive. */
export const backupStateParamsSchema = z.object({ state: z.enum(['0', '1']) });

/** Spec §7: backups are updated by POST with `_method=patch`; only their state can change. */
export const backupUpdateSchema = z.object({
  _method: limitedText(TEXT_LIMITS.label).optional(),
  is_active: z.preprocess(booleanish, z.boolean()),
});

/** A backup file's name: no path, nothing but word characters, dots and dashes. */
export const backupFileParamsSchema = z.object({
  name: z
    .string()
    .max(TEXT_LIMITS.label, { error: 'Nom de fichier invalide' })
    .regex(/^[\w.-]+$/, { error: 'Nom de fichier invalide' }),
});

const can = <A extends Action>(action: A) => ({ feature: 'backups', action }) as const;
const list = listShape(backupShape);

/** Spec §7 backups calls; files stream only through these admin routes, never as static URLs. */
export const BACKUPS_ROUTES = routesOf(['Sauvegardes'], {
  save: {
    method: 'GET',
    path: '/api/save-db',
    access: can('add'),
    summary: 'Effectuer une sauvegarde (base + documents)',
    answer: backupsAnswer,
  },
  listApi: {
    method: 'GET',
    path: '/api/backups',
    access: can('list'),
    summary: 'Liste des sauvegardes',
    querystring: backupListQuerySchema,
    answer: list,
  },
  list: {
    method: 'GET',
    path: '/backups',
    access: can('list'),
    summary: 'Liste des sauvegardes',
    querystring: backupListQuerySchema,
    answer: list,
  },
  // `per_page` and `page` come in the query string or in the body, like every `{resource}-search`.
  search: {
    method: 'POST',
    path: '/backups-search',
    access: can('list'),
    summary: 'Recherche : sauvegardes',
    querystring: pageQuerySchema,
    body: searchBodySchema,
    answer: list,
  },
  byState: {
    method: 'GET',
    path: '/backups-by-state/:state',
    access: can('list'),
    summary: 'Sauvegardes actives ou inactives',
    params: backupStateParamsSchema,
    answer: list,
  },
  show: {
    method: 'GET',
    path: '/backups/:id',
    access: can('show'),
    summary: "Détail d'une sauvegarde",
    params: idParamsSchema,
    answer: backupAnswer,
  },
  setState: {
    method: 'GET',
    path: '/backups/:id/state/:state',
    access: can('status'),
    summary: 'Activer / désactiver une sauvegarde',
    params: stateParamSchema,
    answer: backupAnswer,
  },
  setStateLegacy: {
    method: 'GET',
    path: '/backups-set-state/:id/state/:state',
    access: can('status'),
    summary: 'Activer / désactiver une sauvegarde',
    params: stateParamSchema,
    answer: backupAnswer,
  },
  update: {
    method: 'POST',
    path: '/backups/:id',
    access: can('edit'),
    summary: "Modifier l'état d'une sauvegarde",
    params: idParamsSchema,
    body: backupUpdateSchema,
    answer: backupAnswer,
  },
  remove: {
    method: 'DELETE',
    path: '/backups/:id',
    access: can('delete'),
    summary: 'Supprimer une sauvegarde',
    params: idParamsSchema,
    answer: messageShape,
  },
  downloadDoc: {
    method: 'GET',
    path: `/storage/backups/${BACKUP_FOLDERS.doc}/:name`,
    access: can('show'),
    summary: 'Télécharger une sauvegarde',
    params: backupFileParamsSchema,
    file: 'application/octet-stream',
  },
  downloadDb: {
    method: 'GET',
    path: `/storage/backups/${BACKUP_FOLDERS.db}/:name`,
    access: can('show'),
    summary: 'Télécharger une sauvegarde',
    params: backupFileParamsSchema,
    file: 'application/octet-stream',
  },
});
