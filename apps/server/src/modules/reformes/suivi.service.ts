import { isBeforeLastRecord, SUIVI_MESSAGES, type suiviSchema } from '@reformes/domain';
import { and, asc, desc, eq, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { keptPage, mapRows, reformesList } from '../../db/lists/index.ts';
import { objectifs, reformes, resultats, suiviResults } from '../../db/schema/index.ts';
import { AppError, conflict, notFound } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/guard.ts';
import type { PageQuery } from '../../http/pagination.ts';
import { objectifTreesOf } from './objectif-trees.ts';
import { reformeSearch } from './reforme-filters.ts';
import { reformeScope } from './reforme-scope.ts';
import { actAs } from './timeline.service.ts';

const suiviReformeColumns = {
  id: reformes.id,
  libref: reformes.libref,
  periodexe: reformes.periodexe,
  isPublished: reformes.isPublished,
  stage: reformes.stage,
};

/** The follow-up screens (spec §7 `suivi-results/`, `get-suivi-result`): reforms with their trees, and the records of a result. */
export function createSuiviService(db: Db) {
  /** The follow-up screens show what is active only. */
  async function nest<Row extends { id: number }>(reformeRows: Row[]) {
    const treeOf = await objectifTreesOf(
      db,
      reformeRows.map((row) => row.id),
      { activeOnly: true },
    );
    return reformeRows.map((reforme) => ({ ...reforme, objectifs: treeOf(reforme.id) }));
  }

  /** The result, if its reform is in the caller's scope. */
  async function resultInScope(auth: AuthContext, resultId: number) {
    const [row] = await db
      .select({ id: resultats.id, reforme_id: reformes.id })
      .from(resultats)
      .innerJoin(objectifs, eq(objectifs.id, resultats.objectif_id))
      .innerJoin(reformes, eq(reformes.id, objectifs.reforme_id))
      .where(and(eq(resultats.id, resultId), reformeScope(auth)));
    return row;
  }

  /** The follow-up record, if its result's reform is in the caller's scope; otherwise 404. */
  async function recordInScope(auth: AuthContext, id: number) {
    const [row] = await db.select().from(suiviResults).where(eq(suiviResults.id, id));
    if (!row || !(await resultInScope(auth, row.result_id))) throw notFound();
    return row;
  }

  return {
    /** The active reform of that id in the caller's scope, nested: a list of one, or empty. */
    async reformeWithSuivi(auth: AuthContext, reformeId: number) {
      const where: SQL | undefined = and(reformeScope(auth), eq(reformes.is_active, true), eq(reformes.id, reformeId));
      const rows = await db.select(suiviReformeColumns).from(reformes).where(where).orderBy(desc(reformes.date_enreg), desc(reformes.id));
      return nest(rows);
    },

    /**
     * A page of the follow-up pickers: active reforms in scope, newest first, with their true total, each nested.
     * The ids come from the list index first, so a deep page costs its 10 or 20 rows, not the rows before them.
     */
    async page(auth: AuthContext, search: string | undefined, query: PageQuery) {
      const found = await keptPage(db, {
        list: reformesList,
        name: 'suivi',
        where: and(reformeScope(auth), eq(reformes.is_active, true), search ? reformeSearch(search) : undefined),
        order: 'registration',
        loadRows: (at) =>
          db
            .select({ ...suiviReformeColumns, version: at.version })
            .from(reformes)
            .where(at.inPage)
            .orderBy(...at.orderBy),
        page: query.page,
        pageSize: query.per_page,
      });
      return mapRows(found, nest);
    },

    /** A result's records, oldest first; 404 outside the caller's scope. */
    async recordsOf(auth: AuthContext, resultId: number) {
      if (!(await resultInScope(auth, resultId))) throw notFound();
      return db
        .select()
        .from(suiviResults)
        .where(eq(suiviResults.result_id, resultId))
        .orderBy(asc(suiviResults.date), asc(suiviResults.id));
    },

    record: recordInScope,

    /** Adds a record to an active result in scope, never dated before the result's last record (spec §5). */
    async create(auth: AuthContext, input: z.output<typeof suiviSchema>) {
      return db.transaction(async (tx) => {
        await actAs(tx, auth);
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
    },

    async remove(auth: AuthContext, id: number) {
      const row = await recordInScope(auth, id);
      await db.transaction(async (tx) => {
        await actAs(tx, auth);
        await tx.delete(suiviResults).where(eq(suiviResults.id, row.id));
      });
    },
  };
}

export type SuiviService = ReturnType<typeof createSuiviService>;
