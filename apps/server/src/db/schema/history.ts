import { bigint, bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

/** Each distinct value a history line shows, once (migration 0016): a long text is not copied on every line. */
export const historyValues = pgTable('history_values', {
  id: bigserial({ mode: 'number' }).primaryKey(),
  /** SHA-256 of the content, hex. */
  hash: text().notNull().unique(),
  content: text().notNull(),
});

/**
 * One change to a reform or what hangs off it (issue 32), written by the triggers of migration 0016 in the
 * transaction of the change: a creation or deletion of a row, or one field of a row changed, with its values before
 * and after. `kind` names the row's table (reforme, objectif, resultat, suivi, fichier); `field` its column.
 */
export const reformeHistory = pgTable(
  'reforme_history',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    /** No foreign key: the lines of a deleted reform stay. */
    reforme_id: integer().notNull(),
    kind: text().notNull(),
    action: text().notNull(),
    entity_id: integer().notNull(),
    field: text(),
    before_id: bigint({ mode: 'number' }).references(() => historyValues.id),
    after_id: bigint({ mode: 'number' }).references(() => historyValues.id),
    /** The transaction's `reformes.actor_id`; null for work without a user (the demo seed, a scheduled job). */
    actor_id: integer(),
    created_at: createdAt(),
  },
  (t) => [index('reforme_history_reforme_idx').on(t.reforme_id, t.id), index('reforme_history_kind_idx').on(t.reforme_id, t.kind, t.id)],
);
