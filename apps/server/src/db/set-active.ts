import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Transaction } from './client.ts';

type Deactivatable = PgTable & { id: PgColumn; is_active: PgColumn; updated_at: PgColumn };

/**
 * Activates or deactivates the row with this id and stamps its `updated_at`; false when there is no such row:
 * `if (!(await setActiveById(tx, users, id, false))) throw notFound()`.
 */
export async function setActiveById(db: Db | Transaction, table: Deactivatable, id: number, isActive: boolean): Promise<boolean> {
  const updated = await db
    .update(table as PgTable)
    .set({ is_active: isActive, updated_at: new Date() })
    .where(eq(table.id, id))
    .returning({ id: table.id });
  return updated.length > 0;
}
