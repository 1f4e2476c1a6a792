import { and, asc, desc, eq, getTableColumns, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { objectifs, reformes, resultats, suiviResults } from '../../db/schema/index.ts';
import type { PageQuery } from '../../http/pagination.ts';
import { type ReformeConditions, reformeIdPage, withRows } from './reforme-pages.ts';

const suiviReformeColumns = {
  id: reformes.id,
  libref: reformes.libref,
  periodexe: reformes.periodexe,
  isPublished: reformes.isPublished,
  stage: reformes.stage,
};

/**
 * The objectives of these reforms, each with its expected results and their follow-up records (oldest
 * first), grouped by reform: three queries whatever the number of reforms. With `activeOnly`, deactivated
 * objectives (with all their results) and deactivated results are left out, as everywhere but the
 * management screens: `objectifTreesOf(db, [id], { activeOnly: true })`.
 */
export async function objectifTreesOf(db: Db, reformeIds: number[], { activeOnly = false }: { activeOnly?: boolean } = {}) {
  const objectifRows = reformeIds.length
    ? await db
        .select()
        .from(objectifs)
        .where(and(inArray(objectifs.reforme_id, reformeIds), activeOnly ? eq(objectifs.is_active, true) : undefined))
        .orderBy(asc(objectifs.id))
    : [];
  const resultRows = objectifRows.length
    ? await db
        .select()
        .from(resultats)
        .where(
          and(
            inArray(
              resultats.objectif_id,
              objectifRows.map((row) => row.id),
            ),
            activeOnly ? eq(resultats.is_active, true) : undefined,
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
  const trees = objectifRows.map((objectif) => ({
    ...objectif,
    results: resultRows
      .filter((result) => result.objectif_id === objectif.id)
      .map((result) => ({ ...result, suivi_results: suiviRows.filter((suivi) => suivi.result_id === result.id) })),
  }));
  return (reformeId: number) => trees.filter((objectif) => objectif.reforme_id === reformeId);
}

/** The follow-up screens and the public page show what is active only. */
async function nest(db: Db, reformeRows: Array<{ id: number } & Record<string, unknown>>) {
  const treeOf = await objectifTreesOf(
    db,
    reformeRows.map((row) => row.id),
    { activeOnly: true },
  );
  return reformeRows.map((reforme) => ({ ...reforme, objectifs: treeOf(reforme.id) }));
}

/** The reforms matching `where` (one, in practice: by id), with their active objectives, results and follow-up records. */
export async function nestedSuivi(db: Db, where: SQL | undefined) {
  const rows = await db.select(suiviReformeColumns).from(reformes).where(where).orderBy(desc(reformes.date_enreg), desc(reformes.id));
  return nest(db, rows);
}

/**
 * A page of the follow-up pickers: reforms newest first, with their true total, each nested. The ids
 * come from the list index first, so a deep page costs its 10 or 20 rows, not the rows before them.
 */
export async function suiviPage(db: Db, conditions: ReformeConditions, query: PageQuery) {
  return withRows(await reformeIdPage(db, conditions, query), async (ids) => {
    const rows = await db.select(suiviReformeColumns).from(reformes).where(inArray(reformes.id, ids));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return nest(
      db,
      ids.flatMap((id) => byId.get(id) ?? []),
    );
  });
}
