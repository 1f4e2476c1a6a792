import { and, asc, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { objectifs, resultats, suiviResults } from '../../db/schema/index.ts';

interface TreeOptions {
  /** Leaves out deactivated objectives (with all their results) and deactivated results. */
  activeOnly?: boolean;
}

/**
 * The expected results of these objectives, each with its follow-up records (oldest first), in id order:
 * two queries whatever the number of objectives. The lower half of `objectifTreesOf`, for the screens that
 * read objectives or results one at a time.
 */
export async function resultTreesOf(db: Db, objectifIds: number[], { activeOnly = false }: TreeOptions = {}) {
  const resultRows = objectifIds.length
    ? await db
        .select()
        .from(resultats)
        .where(and(inArray(resultats.objectif_id, objectifIds), activeOnly ? eq(resultats.is_active, true) : undefined))
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
  return resultRows.map((result) => ({ ...result, suivi_results: suiviRows.filter((suivi) => suivi.result_id === result.id) }));
}

/**
 * The objectives of these reforms, each with its expected results and their follow-up records (oldest
 * first), grouped by reform: three queries whatever the number of reforms. With `activeOnly`, deactivated
 * objectives (with all their results) and deactivated results are left out, as everywhere but the
 * management screens: `(await objectifTreesOf(db, [id], { activeOnly: true }))(id)`.
 */
export async function objectifTreesOf(db: Db, reformeIds: number[], { activeOnly = false }: TreeOptions = {}) {
  const objectifRows = reformeIds.length
    ? await db
        .select()
        .from(objectifs)
        .where(and(inArray(objectifs.reforme_id, reformeIds), activeOnly ? eq(objectifs.is_active, true) : undefined))
        .orderBy(asc(objectifs.id))
    : [];
  const results = await resultTreesOf(
    db,
    objectifRows.map((row) => row.id),
    { activeOnly },
  );
  const trees = objectifRows.map((objectif) => ({
    ...objectif,
    results: results.filter((result) => result.objectif_id === objectif.id),
  }));
  return (reformeId: number) => trees.filter((objectif) => objectif.reforme_id === reformeId);
}
