import { type ReformeChange, reformeChangeOf, seesAllStructures } from '@reformes/domain';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { objectifs, reformes, resultats, suiviResults } from '../../db/schema/index.ts';
import { conflict, forbidden, notFound } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/guard.ts';

type Reader = Pick<Db, 'select'>;

/** saisie and validation see their structure's reforms only (architecture §4); others see all. */
export function reformeScope(auth: AuthContext): SQL | undefined {
  return seesAllStructures(auth.role) ? undefined : eq(reformes.structure_id, auth.structureId);
}

/**
 * The reform if the caller may see it; otherwise 404, so nothing leaks about other structures.
 * `lock` holds the row until the transaction ends, so a transition cannot slip between the check and the write.
 */
export async function findReformeInScope(db: Reader, auth: AuthContext, id: number, { lock = false } = {}) {
  const query = db
    .select()
    .from(reformes)
    .where(and(eq(reformes.id, id), reformeScope(auth)));
  const [reforme] = lock ? await query.for('update') : await query;
  if (!reforme) throw notFound();
  return reforme;
}

/** Whether any follow-up record hangs off the reform (through its objectives and results). */
async function hasFollowUp(db: Reader, reformeId: number): Promise<boolean> {
  const [row] = await db
    .select({ found: sql<boolean>`true` })
    .from(suiviResults)
    .innerJoin(resultats, eq(resultats.id, suiviResults.result_id))
    .innerJoin(objectifs, eq(objectifs.id, resultats.objectif_id))
    .where(eq(objectifs.reforme_id, reformeId))
    .limit(1);
  return row !== undefined;
}

/** The domain's change rule (`reformeChangeOf`) as an HTTP error: 403 for the role, 409 for the moment. */
export async function assertChange(
  db: Reader,
  auth: AuthContext,
  reforme: { id: number; stage: number; isPublished: boolean },
  change: ReformeChange,
) {
  const followed = change === 'delete' ? await hasFollowUp(db, reforme.id) : false;
  const verdict = reformeChangeOf({ ...reforme, hasFollowUp: followed }, change, auth.role);
  if (!verdict.allowed) throw verdict.status === 403 ? forbidden(verdict.message) : conflict(verdict.message);
}

/**
 * The reform in scope, if the caller may change it now (`change`, by default an edit, which also covers
 * its objectives, results and files). Pass a transaction to lock the row until the write is done.
 */
export async function findChangeableReforme(db: Reader, auth: AuthContext, id: number, change: ReformeChange = 'edit') {
  const reforme = await findReformeInScope(db, auth, id, { lock: true });
  await assertChange(db, auth, reforme, change);
  return reforme;
}
