import fs from 'node:fs';
import { BACKUP_MESSAGES, booleanish, idParamsSchema, MESSAGES, stateParamSchema } from '@reformes/domain';
import { count, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { backups } from '../../db/schema/index.ts';
import { notFound } from '../../http/app-error.ts';
import { ok, pagedList, plainList } from '../../http/envelope.ts';
import { pageOf, pageQuerySchema } from '../../http/pagination.ts';
import { BACKUP_FOLDERS } from './backup-files.ts';
import type { BackupsService } from './backups.service.ts';

const tags = ['Sauvegardes'];
const on = (action: 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status') => ({ access: { feature: 'backups' as const, action } });

/** Spec §7 backups calls; files stream only through these admin routes, never as static URLs. */
export const backupsRoutes: FastifyPluginAsyncZod<{ db: Db; backupsService: BackupsService }> = async (app, { db, backupsService }) => {
  app.get('/api/save-db', { config: on('add'), schema: { tags, summary: 'Effectuer une sauvegarde (base + documents)' } }, async () =>
    ok(await backupsService.create(), BACKUP_MESSAGES.saved),
  );

  const list = async (perPage: number | undefined, page: number) => {
    const query = db.select().from(backups).orderBy(desc(backups.created_at), desc(backups.id)).$dynamic();
    if (!perPage) return plainList(await query);
    const [[{ total }], rows] = await Promise.all([
      db.select({ total: count() }).from(backups),
      query.limit(perPage).offset((page - 1) * perPage),
    ]);
    return pagedList(pageOf(rows, total, page, perPage));
  };
  app.get('/api/backups', { config: on('list'), schema: { tags, querystring: pageQuerySchema } }, async (request) =>
    list(request.query.per_page, request.query.page),
  );
  app.get('/backups', { config: on('list'), schema: { tags, querystring: pageQuerySchema } }, async (request) =>
    list(request.query.per_page, request.query.page),
  );

  app.get(
    '/backups-by-state/:state',
    { config: on('list'), schema: { tags, params: z.object({ state: z.enum(['0', '1']) }) } },
    async (request) =>
      plainList(
        await db
          .select()
          .from(backups)
          .where(eq(backups.is_active, request.params.state === '1'))
          .orderBy(desc(backups.created_at)),
      ),
  );

  app.get('/backups/:id', { config: on('show'), schema: { tags, params: idParamsSchema } }, async (request) =>
    ok(await backupsService.find(request.params.id), MESSAGES.found),
  );

  const setState = async (id: number, isActive: boolean) => {
    const updated = await db.update(backups).set({ is_active: isActive }).where(eq(backups.id, id)).returning();
    if (updated.length === 0) throw notFound();
    return ok(updated[0], isActive ? MESSAGES.activated : MESSAGES.deactivated);
  };
  app.get('/backups/:id/state/:state', { config: on('status'), schema: { tags, params: stateParamSchema } }, async (request) =>
    setState(request.params.id, request.params.state === '1'),
  );
  app.get('/backups-set-state/:id/state/:state', { config: on('status'), schema: { tags, params: stateParamSchema } }, async (request) =>
    setState(request.params.id, request.params.state === '1'),
  );
  // Spec §7: backups are updated by POST with `_method=patch`; only their state can change.
  app.post(
    '/backups/:id',
    {
      config: on('edit'),
      schema: {
        tags,
        params: idParamsSchema,
        body: z.object({ _method: z.string().optional(), is_active: z.preprocess(booleanish, z.boolean()) }),
      },
    },
    async (request) => setState(request.params.id, request.body.is_active),
  );

  app.delete('/backups/:id', { config: on('delete'), schema: { tags, params: idParamsSchema } }, async (request) => {
    await backupsService.remove(request.params.id);
    return { message: MESSAGES.deleted };
  });

  for (const folder of [BACKUP_FOLDERS.doc, BACKUP_FOLDERS.db]) {
    app.get(
      `/storage/backups/${folder}/:name`,
      {
        config: on('show'),
        schema: {
          tags,
          summary: 'Télécharger une sauvegarde',
          params: z.object({ name: z.string().regex(/^[\w.-]+$/, { error: 'Nom de fichier invalide' }) }),
        },
      },
      async (request, reply) => {
        const row = await backupsService.findByName(folder, request.params.name);
        return reply
          .type('application/octet-stream')
          .header('Content-Disposition', `attachment; filename="${row.name}"`)
          .header('Cache-Control', 'private, no-store')
          .send(fs.createReadStream(backupsService.fileOf(row)));
      },
    );
  }
};
