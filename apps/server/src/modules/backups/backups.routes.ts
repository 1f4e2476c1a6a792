import fs from 'node:fs';
import {
  BACKUP_MESSAGES,
  backupAnswer,
  backupShape,
  backupsAnswer,
  booleanish,
  ID_MAX,
  idParamsSchema,
  limitedText,
  listShape,
  MESSAGES,
  messageShape,
  searchSchema,
  searchTextField,
  stateParamSchema,
  TEXT_LIMITS,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, pagedList, plainList } from '../../http/envelope.ts';
import { pageQuerySchema } from '../../http/pagination.ts';
import { BACKUP_FOLDERS } from './backup-files.ts';
import type { BackupsService } from './backups.service.ts';

const tags = ['Sauvegardes'];
const on = (action: 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status') => ({ access: { feature: 'backups' as const, action } });

/** Spec §7 backups calls; files stream only through these admin routes, never as static URLs. */
export const backupsRoutes: FastifyPluginAsyncZod<{ backupsService: BackupsService }> = async (app, { backupsService }) => {
  app.get(
    '/api/save-db',
    {
      config: on('add'),
      schema: { tags, summary: 'Effectuer une sauvegarde (base + documents)', response: { 200: backupsAnswer } },
    },
    async () => ok(await backupsService.create(), BACKUP_MESSAGES.saved),
  );

  const listed = (page: Awaited<ReturnType<BackupsService['list']>>) => (Array.isArray(page) ? plainList(page) : pagedList(page));
  const listQuerySchema = pageQuerySchema.extend({ search: searchTextField });
  for (const url of ['/api/backups', '/backups']) {
    app.get(
      url,
      { config: on('list'), schema: { tags, querystring: listQuerySchema, response: { 200: listShape(backupShape) } } },
      async (request) => listed(await backupsService.list(request.query)),
    );
  }
  // `per_page` and `page` come in the query string or in the body, like every `{resource}-search`.
  app.post(
    '/backups-search',
    {
      config: on('list'),
      schema: {
        tags,
        summary: 'Recherche : sauvegardes',
        querystring: pageQuerySchema,
        body: searchSchema.extend({
          per_page: pageQuerySchema.shape.per_page,
          page: z.coerce.number().int().min(1).max(ID_MAX).optional(),
        }),
        response: { 200: listShape(backupShape) },
      },
    },
    async (request) =>
      listed(
        await backupsService.list({
          search: request.body.search,
          per_page: request.body.per_page ?? request.query.per_page,
          page: request.body.page ?? request.query.page,
        }),
      ),
  );

  app.get(
    '/backups-by-state/:state',
    { config: on('list'), schema: { tags, params: z.object({ state: z.enum(['0', '1']) }), response: { 200: listShape(backupShape) } } },
    async (request) => plainList(await backupsService.listByState(request.params.state === '1')),
  );

  app.get(
    '/backups/:id',
    { config: on('show'), schema: { tags, params: idParamsSchema, response: { 200: backupAnswer } } },
    async (request) => ok(await backupsService.find(request.params.id), MESSAGES.found),
  );

  const setState = async (id: number, isActive: boolean) =>
    ok(await backupsService.setState(id, isActive), isActive ? MESSAGES.activated : MESSAGES.deactivated);
  app.get(
    '/backups/:id/state/:state',
    { config: on('status'), schema: { tags, params: stateParamSchema, response: { 200: backupAnswer } } },
    async (request) => setState(request.params.id, request.params.state === '1'),
  );
  app.get(
    '/backups-set-state/:id/state/:state',
    { config: on('status'), schema: { tags, params: stateParamSchema, response: { 200: backupAnswer } } },
    async (request) => setState(request.params.id, request.params.state === '1'),
  );
  // Spec §7: backups are updated by POST with `_method=patch`; only their state can change.
  app.post(
    '/backups/:id',
    {
      config: on('edit'),
      schema: {
        tags,
        params: idParamsSchema,
        body: z.object({ _method: limitedText(TEXT_LIMITS.label).optional(), is_active: z.preprocess(booleanish, z.boolean()) }),
        response: { 200: backupAnswer },
      },
    },
    async (request) => setState(request.params.id, request.body.is_active),
  );

  app.delete(
    '/backups/:id',
    { config: on('delete'), schema: { tags, params: idParamsSchema, response: { 200: messageShape } } },
    async (request) => {
      await backupsService.remove(request.params.id);
      return { message: MESSAGES.deleted };
    },
  );

  for (const folder of [BACKUP_FOLDERS.doc, BACKUP_FOLDERS.db]) {
    app.get(
      `/storage/backups/${folder}/:name`,
      {
        config: { ...on('show'), fileAnswer: 'application/octet-stream' },
        schema: {
          tags,
          summary: 'Télécharger une sauvegarde',
          params: z.object({
            name: z
              .string()
              .max(TEXT_LIMITS.label, { error: 'Nom de fichier invalide' })
              .regex(/^[\w.-]+$/, { error: 'Nom de fichier invalide' }),
          }),
        },
      },
      async (request, reply) => {
        const row = await backupsService.findByName(folder, request.params.name);
        await backupsService.recordDownload(row);
        return reply
          .type('application/octet-stream')
          .header('Content-Disposition', `attachment; filename="${row.name}"`)
          .header('Cache-Control', 'private, no-store')
          .send(fs.createReadStream(backupsService.fileOf(row)));
      },
    );
  }
};
