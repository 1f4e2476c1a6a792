import {
  envelopeShape,
  idParamsSchema,
  MESSAGES,
  pagedShape,
  publicFilterOptionsShape,
  publicReformeDetailAnswer,
  publicReformeShape,
  reformeFiltersSchema,
} from '@reformes/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, pagedList } from '../../http/envelope.ts';
import { PAGE_SIZE, pageQuerySchema } from '../../http/pagination.ts';
import type { PublicService } from './public.service.ts';
import { matchesEtag, openDataCsv, openDataJson } from './public-export.ts';

const tags = ['Public'];
const access = { access: 'public' as const };
const pageQuery = reformeFiltersSchema.extend({
  per_page: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
  page: pageQuerySchema.shape.page,
});

/** `/accueil` reads these without signing in: published, active reforms only, public fields only. */
export const publicRoutes: FastifyPluginAsyncZod<{ publicReformes: PublicService }> = async (app, { publicReformes }) => {
  app.get(
    '/reformes/public/suivi-result',
    {
      config: access,
      schema: {
        tags,
        summary: 'Réformes publiées (filtres, recherche, pages)',
        querystring: pageQuery,
        response: { 200: pagedShape(publicReformeShape) },
      },
    },
    async (request) => {
      const { per_page, page, ...filters } = request.query;
      return pagedList(await publicReformes.page(filters, per_page, page));
    },
  );

  app.get(
    '/reformes/public/filters',
    { config: access, schema: { tags, summary: 'Options des filtres', response: { 200: envelopeShape(publicFilterOptionsShape) } } },
    async () => ok(await publicReformes.filters(), MESSAGES.listed),
  );

  // Open data, streamed batch by batch (issue 28): 20 000 reforms never sit in memory at once.
  const formats = {
    json: { summary: 'Données ouvertes (JSON)', type: 'application/json; charset=utf-8', write: openDataJson },
    csv: { summary: 'Données ouvertes (CSV)', type: 'text/csv; charset=utf-8', write: openDataCsv },
  } as const;
  for (const [extension, format] of Object.entries(formats)) {
    app.get(
      `/reformes/public/export.${extension}`,
      { config: { ...access, fileAnswer: format.type }, schema: { tags, summary: format.summary, querystring: reformeFiltersSchema } },
      async (request, reply) => {
        await publicReformes.throttleExport(request.ip);
        const file = await publicReformes.openExport(request.query);
        // A download cut before its first batch never runs the batches' own release.
        reply.raw.once('close', () => void file.release());
        reply.header('ETag', file.etag);
        if (matchesEtag(request.headers['if-none-match'], file.etag)) {
          await file.release();
          return reply.code(304).send();
        }
        const batches = await file.batches();
        reply.header('Content-Disposition', `attachment; filename="reformes-publiees.${extension}"`);
        return reply.type(format.type).send(format.write(batches));
      },
    );
  }

  app.get(
    '/reformes/public/:id',
    {
      config: access,
      schema: {
        tags,
        summary: "Fiche publique d'une réforme publiée",
        params: idParamsSchema,
        response: { 200: publicReformeDetailAnswer },
      },
    },
    async (request) => ok(await publicReformes.detail(request.params.id), MESSAGES.found),
  );
};
