import {
  ETATS_MOR,
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
import { CSV_BOM, csvLine } from '../../http/csv.ts';
import { ok, pagedList } from '../../http/envelope.ts';
import { PAGE_SIZE, pageQuerySchema } from '../../http/pagination.ts';
import type { PublicService } from './public.service.ts';

const tags = ['Public'];
const access = { access: 'public' as const };
const pageQuery = reformeFiltersSchema.extend({
  per_page: z.coerce.number().int().min(1).max(100).default(PAGE_SIZE),
  page: pageQuerySchema.shape.page,
});

type PublicRow = Awaited<ReturnType<PublicService['all']>>[number];

/** Open-data columns, French headers (UTF-8). */
const OPEN_DATA_COLUMNS: Array<[string, (row: PublicRow) => string | number | null]> = [
  ['Identifiant', (row) => row.id],
  ['Libellé', (row) => row.libref],
  ['Type', (row) => row.typeref],
  ['Nature', (row) => row.nature.libnature],
  ['Couverture', (row) => row.couverture.lib_couvert],
  ['Structure', (row) => row.structure.designation],
  ['Période', (row) => row.periodexe],
  ['Date début', (row) => row.date_debut],
  ['Date fin', (row) => row.date_fin],
  ['État', (row) => ETATS_MOR.find((etat) => etat.value === row.etat_mor)?.label ?? ''],
  ['Objectif global', (row) => row.objectif_glob],
  ['Population cible', (row) => row.popul_cible],
  ['Structures impliquées', (row) => row.struct_impl],
  ['Montant prévu (EUR)', (row) => row.montant_prevu],
  ['Montant réalisé (EUR)', (row) => row.montant_trealise],
];

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

  app.get(
    '/reformes/public/export.json',
    {
      config: access,
      schema: { tags, summary: 'Données ouvertes (JSON)', querystring: reformeFiltersSchema },
    },
    async (request, reply) => {
      const rows = await publicReformes.all(request.query);
      const data = rows.map((row) => Object.fromEntries(OPEN_DATA_COLUMNS.map(([header, read]) => [header, read(row)])));
      reply.header('Content-Disposition', 'attachment; filename="reformes-publiees.json"');
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(data, null, 2));
    },
  );

  app.get(
    '/reformes/public/export.csv',
    { config: access, schema: { tags, summary: 'Données ouvertes (CSV)', querystring: reformeFiltersSchema } },
    async (request, reply) => {
      const rows = await publicReformes.all(request.query);
      const lines = [
        csvLine(OPEN_DATA_COLUMNS.map(([header]) => header)),
        ...rows.map((row) => csvLine(OPEN_DATA_COLUMNS.map(([, read]) => read(row)))),
      ];
      reply.header('Content-Disposition', 'attachment; filename="reformes-publiees.csv"');
      // The byte-order mark lets spreadsheet software read the accents as UTF-8.
      return reply.type('text/csv; charset=utf-8').send(CSV_BOM + lines.join(''));
    },
  );

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
