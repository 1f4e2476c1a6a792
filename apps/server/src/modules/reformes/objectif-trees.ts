import { and, asc, eq, getTableColumns, inArray } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { objectifs, resultats, suiviResults } from '../../db/schema/index.ts';

interface TreeOptions {
  /** Leaves out deactivated objectives (with all their results) and deactivated results. */
  activeOnly?: boolean;
}

/** The rows of `table` whose `parent` column is one of `parentIds` (the active ones only, with `activeOnly`), in id order. */
async function rowsUnder<TTable extends PgTable & { id: PgColumn; is_active: PgColumn }>(
  db: Db,
  table: TTable,
  parent: PgColumn,
  parentIds: number[],
  activeOnly: boolean,
): Promise<TTable['$inferSelect'][]> {
  if (parentIds.length === 0) return [];
  return db
    .select()
    .from(table as PgTable)
    .where(and(inArray(parent, parentIds), activeOnly ? eq(table.is_active, true) : undefined))
    .orderBy(asc(table.id));
}

/**
 * The expected results of these objectives, each with its follow-up records (oldest first), in id order:
 * two queries whatever the number of objectives. The lower half of `objectifTreesOf`, for the screens that
 * read objectives or results one at a time.
 */
export async function resultTreesOf(db: Db, objectifIds: number[], { activeOnly = false }: TreeOptions = {}) {
  const resultRows = await rowsUnder(db, resultats, resultats.objectif_id, objectifIds, activeOnly);
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
  const objectifRows = await rowsUnder(db, objectifs, objectifs.reforme_id, reformeIds, activeOnly);
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
