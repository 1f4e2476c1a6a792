import { BACKUP_FOLDERS, BACKUP_MESSAGES, MESSAGES, BACKUPS_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { deleted, ok, pagedList, plainList } from '../../http/envelope.ts';
import { routeTable } from '../../http/route-table.ts';
import type { BackupsService } from './backups.service.ts';

/** The handlers of BACKUPS_ROUTES (packages/domain/src/routes/backups.ts). */
export const backupsRoutes: FastifyPluginAsyncZod<{ backupsService: BackupsService }> = async (app, { backupsService }) => {
  const on = routeTable(app);
  on(ROUTES.save, async () => ok(await backupsService.create(), BACKUP_MESSAGES.saved));

  const listed = (page: Awaited<ReturnType<BackupsService['list']>>) => (Array.isArray(page) ? plainList(page) : pagedList(page));
  for (const spec of [ROUTES.listApi, ROUTES.list]) {
    on(spec, async (request) => listed(await backupsService.list(request.query)));
  }
  on(ROUTES.search, async (request) =>
    listed(
      await backupsService.list({
        search: request.body.search,
        per_page: request.body.per_page ?? request.query.per_page,
        page: request.body.page ?? request.query.page,
      }),
    ),
  );

  on(ROUTES.byState, async (request) => plainList(await backupsService.listByState(request.params.state === '1')));
  on(ROUTES.show, async (request) => ok(await backupsService.find(request.params.id), MESSAGES.found));

  const setState = async (id: number, isActive: boolean) =>
    ok(await backupsService.setState(id, isActive), isActive ? MESSAGES.activated : MESSAGES.deactivated);
  for (const spec of [ROUTES.setState, ROUTES.setStateLegacy]) {
    on(spec, async (request) => setState(request.params.id, request.params.state === '1'));
  }
  on(ROUTES.update, async (request) => setState(request.params.id, request.body.is_active));

  on(ROUTES.remove, (request) => deleted(backupsService.remove(request.params.id)));

  const downloads = [
    { spec: ROUTES.downloadDoc, folder: BACKUP_FOLDERS.doc },
    { spec: ROUTES.downloadDb, folder: BACKUP_FOLDERS.db },
  ];
  for (const { spec, folder } of downloads) {
    on(spec, async (request, reply) => {
      const row = await backupsService.findByName(folder, request.params.name);
      await backupsService.recordDownload(row);
      return reply
        .type(spec.file)
        .header('Content-Disposition', `attachment; filename="${row.name}"`)
        .header('Cache-Control', 'private, no-store')
        .send(await backupsService.open(row));
    });
  }
};
