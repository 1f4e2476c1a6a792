import { idParamsSchema, isBeforeLastRecord, MESSAGES, SUIVI_MESSAGES, suiviSchema } from '@reformes/domain';
import { and, asc, desc, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { objectifs, reformes, resultats, suiviResults } from '../../db/schema/index.ts';
import { AppError, notFound } from '../../http/app-error.ts';
import { ok, plainList } from '../../http/envelope.ts';
import { type AuthContext, authOf } from '../../http/guard.ts';
import { reformeScope } from './reforme-scope.ts';

const tags = ['Données de suivi'];
const on = (action: 'list' | 'show' | 'add' | 'delete') => ({ access: { feature: 'suivi-results' as const, action } });
const NESTED_LIMIT = 500;

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

/**
 * Reforms in scope with their objectives, results and follow-up records, nested: the three
 * chained selects of the data-entry screen and the follow-up view read from this one answer.
 */
export async function nestedSuivi(db: Db, where: ReturnType<typeof and>) {
  const reformeRows = await db
    .select({
      id: reformes.id,
      libref: reformes.libref,
      periodexe: reformes.periodexe,
      isPublished: reformes.isPublished,
      stage: reformes.stage,
    })
    .from(reformes)
    .where(where)
    .orderBy(desc(reformes.date_enreg), desc(reformes.id))
    .limit(NESTED_LIMIT);
  if (reformeRows.length === 0) return [];
  const objectifRows = await db
    .select()
    .from(objectifs)
    .where(
      inArray(
        objectifs.reforme_id,
        reformeRows.map((row) => row.id),
      ),
    )
    .orderBy(asc(objectifs.id));
  const resultRows = objectifRows.length
    ? await db
        .select()
        .from(resultats)
        .where(
          inArray(
            resultats.objectif_id,
            objectifRows.map((row) => row.id),
          ),
        )
        .orderBy(asc(resultats.id))
    : [];
  const suiviRows = resultRows.length
    ? await db
        .select(getTableColumns(suiviResults))
        .from(suiviResults)
        .where(
          inArray(
            suiviResults.result_id,
            resultRows.map((row) => row.id),
          ),
        )
        .orderBy(asc(suiviResults.date), asc(suiviResults.id))
    : [];
  return reformeRows.map((reforme) => ({
    ...reforme,
    objectifs: objectifRows
      .filter((objectif) => objectif.reforme_id === reforme.id)
      .map((objectif) => ({
        ...objectif,
        results: resultRows
          .filter((result) => result.objectif_id === objectif.id)
          .map((result) => ({ ...result, suivi_results: suiviRows.filter((suivi) => suivi.result_id === result.id) })),
      })),
  }));
}

/** Spec §7 `suivi-results/` and `reformes/users/get-suivi-result`. */
export const suiviRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/reformes/users/get-suivi-result',
    {
      config: on('list'),
      schema: {
        tags,
        summary: 'Réformes, objectifs, résultats et suivis (imbriqués)',
        querystring: z.object({ reforme_id: z.coerce.number().int().positive().optional() }),
      },
    },
    async (request) => {
      const auth = authOf(request);
      const only = request.query.reforme_id ? eq(reformes.id, request.query.reforme_id) : undefined;
      return plainList(await nestedSuivi(db, and(reformeScope(auth), eq(reformes.is_active, true), only)));
    },
  );

  app.get(
    '/suivi-results',
    {
      config: on('list'),
      schema: { tags, summary: "Suivis d'un résultat", querystring: z.object({ result_id: z.coerce.number().int().positive() }) },
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
          .select({ id: resultats.id })
          .from(resultats)
          .innerJoin(objectifs, eq(objectifs.id, resultats.objectif_id))
          .innerJoin(reformes, eq(reformes.id, objectifs.reforme_id))
          .where(and(eq(resultats.id, input.result_id), reformeScope(auth)))
          .for('update', { of: resultats });
        if (!result) throw notFound();
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
