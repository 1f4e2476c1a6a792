import { ID_MAX, idParamsSchema, isBeforeLastRecord, MESSAGES, SUIVI_MESSAGES, searchTextField, suiviSchema } from '@reformes/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { objectifs, reformes, resultats, suiviResults } from '../../db/schema/index.ts';
import { AppError, conflict, notFound } from '../../http/app-error.ts';
import { listEnvelope, ok, plainList } from '../../http/envelope.ts';
import { type AuthContext, authOf } from '../../http/guard.ts';
import { pageQuerySchema } from '../../http/pagination.ts';
import { reformeSearch, scopeCondition } from './reforme-pages.ts';
import { reformeScope } from './reforme-scope.ts';
import { nestedSuivi, suiviPage } from './suivi.service.ts';

const tags = ['Données de suivi'];
const on = (action: 'list' | 'show' | 'add' | 'delete') => ({ access: { feature: 'suivi-results' as const, action } });

/** The result, if its reform is in the caller's scope. */
async function resultInScope(db: Db, auth: AuthContext, resultId: number) {
  const [row] = await db
    .select({ id: resultats.id, reforme_id: reformes.id })
    .from(resultats)
    .innerJoin(objectifs, eq(objectifs.id, resultats.objectif_id))
    .innerJoin(reformes, eq(reformes.id, objectifs.reforme_id))
    .where(and(eq(resultats.id, resultId), reformeScope(auth)));
  return row;
}

/** Spec §7 `suivi-results/` and `reformes/users/get-suivi-result`. */
export const suiviRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/reformes/users/get-suivi-result',
    {
      config: on('list'),
      schema: {
        tags,
        summary: 'Réformes (une, ou une page recherchée), avec objectifs, résultats et suivis imbriqués',
        querystring: pageQuerySchema.extend({
          reforme_id: z.coerce.number().int().positive().max(ID_MAX).optional(),
          search: searchTextField,
        }),
      },
    },
    async (request) => {
      const { reforme_id, search, ...page } = request.query;
      const auth = authOf(request);
      if (reforme_id)
        return plainList(await nestedSuivi(db, and(reformeScope(auth), eq(reformes.is_active, true), eq(reformes.id, reforme_id))));
      const counted = [...scopeCondition(auth), ['is_active', true] as const];
      return listEnvelope(await suiviPage(db, { counted, other: [search ? reformeSearch(search) : undefined] }, page));
    },
  );

  app.get(
    '/suivi-results',
    {
      config: on('list'),
      schema: {
        tags,
        summary: "Suivis d'un résultat",
        querystring: z.object({ result_id: z.coerce.number().int().positive().max(ID_MAX) }),
      },
    },
    async (request) => {
      if (!(await resultInScope(db, authOf(request), request.query.result_id))) throw notFound();
      return plainList(
        await db
          .select()
          .from(suiviResults)
          .where(eq(suiviResults.result_id, request.query.result_id))
          .orderBy(asc(suiviResults.date), asc(suiviResults.id)),
      );
    },
  );

  app.get('/suivi-results/:id', { config: on('show'), schema: { tags, params: idParamsSchema } }, async (request) => {
    const [row] = await db.select().from(suiviResults).where(eq(suiviResults.id, request.params.id));
    if (!row || !(await resultInScope(db, authOf(request), row.result_id))) throw notFound();
    return ok(row, MESSAGES.found);
  });

  app.post(
    '/suivi-results',
    { config: on('add'), schema: { tags, summary: 'Enregistrer une donnée de suivi', body: suiviSchema } },
    async (request, reply) => {
      const auth = authOf(request);
      const input = request.body;
      const created = await db.transaction(async (tx) => {
        // Lock the result so two records cannot both pass the "not before the last one" rule.
        const [result] = await tx
          .select({ id: resultats.id, isActive: resultats.is_active, isObjectifActive: objectifs.is_active })
          .from(resultats)
          .innerJoin(objectifs, eq(objectifs.id, resultats.objectif_id))
          .innerJoin(reformes, eq(reformes.id, objectifs.reforme_id))
          .where(and(eq(resultats.id, input.result_id), reformeScope(auth)))
          .for('update', { of: resultats });
        if (!result) throw notFound();
        if (!result.isActive || !result.isObjectifActive) throw conflict(SUIVI_MESSAGES.resultInactive);
        const records = await tx.select({ date: suiviResults.date }).from(suiviResults).where(eq(suiviResults.result_id, input.result_id));
        if (isBeforeLastRecord(input.date, records))
          throw new AppError(422, SUIVI_MESSAGES.dateBeforeLast, { date: [SUIVI_MESSAGES.dateBeforeLast] });
        const [row] = await tx
          .insert(suiviResults)
          .values({
            result_id: input.result_id,
            taux_realisat: String(input.taux_realisat),
            valeur_realise: String(input.valeur_realise),
            date: input.date,
            created_by: auth.userId,
          })
          .returning();
        return row;
      });
      reply.status(201);
      return ok(created, SUIVI_MESSAGES.created);
    },
  );

  app.delete(
    '/suivi-results/:id',
    { config: on('delete'), schema: { tags, summary: 'Retirer une donnée de suivi', params: idParamsSchema } },
    async (request) => {
      const [row] = await db.select().from(suiviResults).where(eq(suiviResults.id, request.params.id));
      if (!row || !(await resultInScope(db, authOf(request), row.result_id))) throw notFound();
      await db.delete(suiviResults).where(eq(suiviResults.id, row.id));
      return { message: MESSAGES.deleted };
    },
  );
};
