import { MESSAGES, PUBLIC_ROUTES as ROUTES } from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientOf } from '../../http/client-key.ts';
import { ok, pagedList } from '../../http/envelope.ts';
import { onEachExport } from '../../http/export-routes.ts';
import { routeTable } from '../../http/route-table.ts';
import { endWhenStalled } from '../../http/stalled-download.ts';
import type { PublicService } from './public.service.ts';
import { matchesEtag, openDataCsv, openDataJson } from './public-export.ts';

/** The handlers of PUBLIC_ROUTES (packages/domain/src/routes/public.ts): `/accueil` reads these without signing in. */
export interface PublicRoutesOptions {
  publicReformes: PublicService;
  /** A download whose client reads nothing for this long is ended (DOWNLOAD_STALL_MS; tests shorten it). */
  downloadStallMs?: number;
}

export const publicRoutes: FastifyPluginAsyncZod<PublicRoutesOptions> = async (app, { publicReformes, downloadStallMs }) => {
  const on = routeTable(app);
  on(ROUTES.page, async (request) => {
    const { per_page, page, ...filters } = request.query;
    return pagedList(await publicReformes.page(filters, per_page, page));
  });

  on(ROUTES.filters, async () => ok(await publicReformes.filters(), MESSAGES.listed));

  // Open data, streamed batch by batch (issue 28): 20 000 reforms never sit in memory at once.
  const formats = [
    [ROUTES.exportJson, openDataJson],
    [ROUTES.exportCsv, openDataCsv],
  ] as const;
  onEachExport(on, formats, ({ spec, extension, write }) => async (request, reply) => {
    const client = clientOf(request);
    await publicReformes.throttleExport(client);
    const file = await publicReformes.openExport(request.query, client);
    // A download cut before its first batch never runs the batches' own release.
    reply.raw.once('close', () => void file.release());
    reply.header('ETag', file.etag);
    if (matchesEtag(request.headers['if-none-match'], file.etag)) {
      await file.release();
      return reply.code(304).send();
    }
    const batches = await file.batches();
    reply.header('Content-Disposition', `attachment; filename="reformes-publiees.${extension}"`);
    // A reader that stops reading would hold its place, and its client's, for as long as it keeps the socket open.
    endWhenStalled(reply.raw, downloadStallMs);
    return reply.type(spec.file).send(write(batches));
  });

  on(ROUTES.detail, async (request) => ok(await publicReformes.detail(request.params.id), MESSAGES.found));
};
