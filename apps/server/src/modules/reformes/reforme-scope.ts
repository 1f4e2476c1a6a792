import { canChangePublished, REFORME_MESSAGES, seesAllStructures } from '@reformes/domain';
import { and, eq, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { reformes } from '../../db/schema/index.ts';
import { conflict, notFound } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/guard.ts';

/** saisie and validation see their structure's reforms only (architecture §4); others see all. */
export function reformeScope(auth: AuthContext): SQL | undefined {
  return seesAllStructures(auth.role) ? undefined : eq(reformes.structure_id, auth.structureId);
}

/** The reform if the caller may see it; otherwise 404, so nothing leaks about other structures. */
export async function findReformeInScope(db: Pick<Db, 'select'>, auth: AuthContext, id: number) {
  const [reforme] = await db
    .select()
    .from(reformes)
    .where(and(eq(reformes.id, id), reformeScope(auth)));
  if (!reforme) throw notFound();
  return reforme;
}

/** Published reforms are read-only for saisie and validation. */
export function assertCanChange(auth: AuthContext, reforme: { isPublished: boolean }) {
  if (reforme.isPublished && !canChangePublished(auth.role)) throw conflict(REFORME_MESSAGES.published);
}

/** Both checks at once, for everything that hangs off a reform (objectives, results, files). */
export async function findChangeableReforme(db: Pick<Db, 'select'>, auth: AuthContext, id: number) {
  const reforme = await findReformeInScope(db, auth, id);
  assertCanChange(auth, reforme);
  return reforme;
}
