import { type ObjectifInput, RESULT_VALIDATION_MESSAGES, resultValidationOf } from '@reformes/domain';
import { and, count, desc, eq, getTableColumns, type SQL } from 'drizzle-orm';
import type { Db, Transaction } from '../../db/client.ts';
import { objectifs, reformes, resultats } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/guard.ts';
import { listOrPage, type PageQuery, sliced } from '../../http/pagination.ts';
import { matchesSearch } from '../../http/search.ts';
import { objectifTreesOf, resultTreesOf } from './objectif-trees.ts';
import { findChangeableReforme, findReformeInScope, reformeScope } from './reforme-scope.ts';
import { actAs } from './timeline.service.ts';

type Reader = Pick<Db, 'select'>;

interface ResultatValues {
  objectif_id: number;
  libresult: string;
  indicateur: string;
  valeur_cible: number | null;
  valeurref: number | null;
}

/** Objectives and expected results: both hang off a reform and follow its scope and its lock. */
export function createObjectifsService(db: Db) {
  const objectifColumns = { ...getTableColumns(objectifs), reforme: { id: reformes.id, libref: reformes.libref } };

  function objectifRows(auth: AuthContext, where: SQL | undefined, limit?: number, offset?: number) {
    const query = db
      .select(objectifColumns)
      .from(objectifs)
      .innerJoin(reformes, eq(reformes.id, objectifs.reforme_id))
      .where(and(reformeScope(auth), where))
      .orderBy(desc(objectifs.id))
      .$dynamic();
    return sliced(query, limit, offset);
  }

  async function objectifView(auth: AuthContext, id: number) {
    const [row] = await objectifRows(auth, eq(objectifs.id, id), 1);
    if (!row) throw notFound();
    return { ...row, results: await resultTreesOf(db, [id]) };
  }

  /** The objective's reform, if in scope. */
  async function reformeOfObjectif(auth: AuthContext, objectifId: number, executor: Reader = db) {
    const [objectif] = await executor.select({ reforme_id: objectifs.reforme_id }).from(objectifs).where(eq(objectifs.id, objectifId));
    if (!objectif) throw notFound();
    return findReformeInScope(executor, auth, objectif.reforme_id);
  }

  /**
   * Runs `write` in one transaction with the reforms it touches (`reformes` ids, or objectives' reforms) locked and
   * checked changeable: a transition of the reform waits for the write, or the write sees the reform's new stage.
   * Rows are locked in id order, so that two writes moving objectives between the same reforms cannot deadlock.
   */
  function changing<T>(
    auth: AuthContext,
    targets: { reformes?: number[]; objectifs?: number[] },
    write: (tx: Transaction) => Promise<T>,
  ): Promise<T> {
    return db.transaction(async (tx) => {
      await actAs(tx, auth);
      const ofObjectifs = await Promise.all((targets.objectifs ?? []).map((id) => reformeOfObjectif(auth, id, tx)));
      const ids = [...new Set([...(targets.reformes ?? []), ...ofObjectifs.map((reforme) => reforme.id)])].sort((a, b) => a - b);
      for (const id of ids) await findChangeableReforme(tx, auth, id);
      return write(tx);
    });
  }

  async function resultatView(auth: AuthContext, id: number) {
    const [row] = await db.select().from(resultats).where(eq(resultats.id, id));
    if (!row) throw notFound();
    await reformeOfObjectif(auth, row.objectif_id);
    const [withSuivi] = await resultTreesOf(db, [row.objectif_id]).then((all) => all.filter((result) => result.id === id));
    return withSuivi;
  }

  const numeric = (value: number | null) => (value === null ? '0' : String(value));

  return {
    /** Objectives in scope, newest first, of one reform or all, searched on their label and their reform's. */
    listObjectifs(auth: AuthContext, filters: { search?: string; reforme_id?: number }, query: PageQuery) {
      const where = and(
        filters.reforme_id ? eq(objectifs.reforme_id, filters.reforme_id) : undefined,
        filters.search ? matchesSearch([objectifs.libobjectif, reformes.libref], filters.search) : undefined,
      );
      return listOrPage(
        query,
        (limit, offset) => objectifRows(auth, where, limit, offset),
        async () =>
          (
            await db
              .select({ total: count() })
              .from(objectifs)
              .innerJoin(reformes, eq(reformes.id, objectifs.reforme_id))
              .where(and(reformeScope(auth), where))
          )[0].total,
      );
    },

    /** A reform's objectives, oldest first, each with its reform, its results and their follow-up records. */
    async byReforme(auth: AuthContext, reformeId: number) {
      const reforme = await findReformeInScope(db, auth, reformeId);
      const treeOf = await objectifTreesOf(db, [reformeId]);
      return treeOf(reformeId).map(({ results, ...objectif }) => ({
        ...objectif,
        reforme: { id: reforme.id, libref: reforme.libref },
        results,
      }));
    },

    objectifView,

    async createObjectif(auth: AuthContext, input: ObjectifInput) {
      const created = await changing(auth, { reformes: [input.reforme_id] }, async (tx) => {
        const [row] = await tx.insert(objectifs).values(input).returning({ id: objectifs.id });
        return row;
      });
      return objectifView(auth, created.id);
    },

    async updateObjectif(auth: AuthContext, id: number, input: ObjectifInput) {
      await changing(auth, { objectifs: [id], reformes: [input.reforme_id] }, (tx) =>
        tx
          .update(objectifs)
          .set({ ...input, updated_at: new Date() })
          .where(eq(objectifs.id, id)),
      );
      return objectifView(auth, id);
    },

    async removeObjectif(auth: AuthContext, id: number) {
      await changing(auth, { objectifs: [id] }, (tx) => tx.delete(objectifs).where(eq(objectifs.id, id)));
    },

    async setObjectifActive(auth: AuthContext, id: number, isActive: boolean) {
      await changing(auth, { objectifs: [id] }, (tx) =>
        tx.update(objectifs).set({ is_active: isActive, updated_at: new Date() }).where(eq(objectifs.id, id)),
      );
      return objectifView(auth, id);
    },

    /** Expected results in scope, newest first, of one objective or all, searched on label and indicator. */
    listResultats(auth: AuthContext, filters: { search?: string; objectif_id?: number }, query: PageQuery) {
      const where = and(
        reformeScope(auth),
        filters.objectif_id ? eq(resultats.objectif_id, filters.objectif_id) : undefined,
        filters.search ? matchesSearch([resultats.libresult, resultats.indicateur], filters.search) : undefined,
      );
      return listOrPage(
        query,
        (limit, offset) =>
          db
            .select({
              ...getTableColumns(resultats),
              objectif: { id: objectifs.id, libobjectif: objectifs.libobjectif, reforme_id: objectifs.reforme_id },
            })
            .from(resultats)
            .innerJoin(objectifs, eq(objectifs.id, resultats.objectif_id))
            .innerJoin(reformes, eq(reformes.id, objectifs.reforme_id))
            .where(where)
            .orderBy(desc(resultats.id))
            .limit(limit)
            .offset(offset),
        async () =>
          (
            await db
              .select({ total: count() })
              .from(resultats)
              .innerJoin(objectifs, eq(objectifs.id, resultats.objectif_id))
              .innerJoin(reformes, eq(reformes.id, objectifs.reforme_id))
              .where(where)
          )[0].total,
      );
    },

    resultatView,

    async createResultat(auth: AuthContext, input: ResultatValues) {
      const created = await changing(auth, { objectifs: [input.objectif_id] }, async (tx) => {
        const [row] = await tx
          .insert(resultats)
          .values({ ...input, valeur_cible: numeric(input.valeur_cible), valeurref: numeric(input.valeurref) })
          .returning({ id: resultats.id });
        return row;
      });
      return resultatView(auth, created.id);
    },

    async updateResultat(auth: AuthContext, id: number, input: ResultatValues) {
      const current = await resultatView(auth, id);
      await changing(auth, { objectifs: [current.objectif_id, input.objectif_id] }, (tx) =>
        tx
          .update(resultats)
          .set({ ...input, valeur_cible: numeric(input.valeur_cible), valeurref: numeric(input.valeurref), updated_at: new Date() })
          .where(eq(resultats.id, id)),
      );
      return resultatView(auth, id);
    },

    /** Spec §4 "Result status": 0 -> 1 only with at least one follow-up record, and while the result and its objective are active. */
    async validateResultat(auth: AuthContext, id: number) {
      const current = await resultatView(auth, id);
      const [objectif] = await db.select({ is_active: objectifs.is_active }).from(objectifs).where(eq(objectifs.id, current.objectif_id));
      const validation = resultValidationOf(current, { is_active: objectif?.is_active === true });
      if (!validation.ok) throw conflict(validation.message);
      const updated = await db
        .update(resultats)
        .set({ status: 1, updated_at: new Date() })
        .where(and(eq(resultats.id, id), eq(resultats.status, 0)))
        .returning({ id: resultats.id });
      if (updated.length === 0) throw conflict(RESULT_VALIDATION_MESSAGES.alreadyValidated);
      return resultatView(auth, id);
    },

    async removeResultat(auth: AuthContext, id: number) {
      const current = await resultatView(auth, id);
      await changing(auth, { objectifs: [current.objectif_id] }, (tx) => tx.delete(resultats).where(eq(resultats.id, id)));
    },

    async setResultatActive(auth: AuthContext, id: number, isActive: boolean) {
      const current = await resultatView(auth, id);
      await changing(auth, { objectifs: [current.objectif_id] }, (tx) =>
        tx.update(resultats).set({ is_active: isActive, updated_at: new Date() }).where(eq(resultats.id, id)),
      );
      return resultatView(auth, id);
    },
  };
}

export type ObjectifsService = ReturnType<typeof createObjectifsService>;
