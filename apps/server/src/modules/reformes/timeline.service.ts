import { TIMELINE_FIELD_LABELS, type TimelineQuery, timelineValueText } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { AuthContext } from '../../http/guard.ts';
import { pageOf } from '../../http/pagination.ts';
import { findReformeInScope } from './reforme-scope.ts';

/**
 * Names the author of the changes of this transaction: the history triggers (migration 0016) read it, and it ends
 * with the transaction, so a pooled connection never lends it to the next one.
 */
export async function actAs(tx: Pick<Db, 'execute'>, auth: Pick<AuthContext, 'userId'>): Promise<void> {
  await tx.execute(sql`select set_config('reformes.actor_id', ${String(auth.userId)}, true)`);
}

type Line = {
  source: 'c' | 'w';
  id: number;
  /** ISO 8601, as JSON writes a timestamptz (the driver's own text is not one). */
  at: string;
  kind: string;
  action: string;
  entity_id: number;
  field: string | null;
  before: string | null;
  after: string | null;
  instruction: string | null;
  actor_name: string | null;
  actor_role: string | null;
  actor_structure: string | null;
};

/**
 * The "Historique" of a reform (issue 32): the field changes the triggers wrote and the workflow's steps
 * (affectations), newest first, one page with its true total. Both sources are read through their (reforme_id, …)
 * index; values and authors are joined for the page's rows only.
 */
export function createTimelineService(db: Db) {
  return {
    async page(auth: AuthContext, reformeId: number, { kind, page, per_page }: TimelineQuery) {
      await findReformeInScope(db, auth, reformeId);
      const changes = sql`select 'c' as source, h.id, h.created_at as at, h.kind, h.action, h.entity_id, h.field,
          h.before_id, h.after_id, null::text as before_text, null::text as after_text, null::text as instruction, h.actor_id
        from reforme_history h where h.reforme_id = ${reformeId} ${kind ? sql`and h.kind = ${kind}` : sql``}`;
      const steps = sql`select 'w' as source, a.id, a.created_at as at, 'workflow' as kind, a.event as action,
          a.reforme_id as entity_id, 'stage' as field, null::bigint as before_id, null::bigint as after_id,
          a.from_stage::text as before_text, a.to_stage::text as after_text, a.instruction, a.user_id as actor_id
        from affectations a where a.reforme_id = ${reformeId}`;
      const sources = kind === 'workflow' ? [steps] : kind ? [changes] : [changes, steps];
      const union = sql.join(sources, sql` union all `);
      const [{ total }] = (await db.execute<{ total: number }>(sql`select count(*)::int as total from (${union}) as lines`)).rows;
      const rows = await db.execute<Line>(sql`
        with lines as (${union} order by at desc, id desc limit ${per_page} offset ${(page - 1) * per_page})
        select lines.source, lines.id::int as id, to_json(lines.at) #>> '{}' as at, lines.kind, lines.action, lines.entity_id, lines.field,
          coalesce(bv.content, lines.before_text) as before, coalesce(av.content, lines.after_text) as after, lines.instruction,
          u.firstname || ' ' || u.lastname as actor_name, s.sigl as actor_structure,
          (select r.name from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id
            order by ur.position, r.id limit 1) as actor_role
        from lines
        left join history_values bv on bv.id = lines.before_id
        left join history_values av on av.id = lines.after_id
        left join users u on u.id = lines.actor_id
        left join structures s on s.id = u.structure_id
        order by lines.at desc, lines.id desc`);
      const data = rows.rows.map((row) => ({
        key: `${row.source}${row.id}`,
        at: row.at,
        kind: row.kind,
        action: row.action,
        entity_id: row.entity_id,
        field: row.field,
        field_label: row.field ? (TIMELINE_FIELD_LABELS[row.field] ?? row.field) : null,
        before: row.before === null ? null : timelineValueText(row.field, row.before),
        after: row.after === null ? null : timelineValueText(row.field, row.after),
        instruction: row.instruction,
        actor: row.actor_name ? { name: row.actor_name, role: row.actor_role, structure: row.actor_structure } : null,
      }));
      return pageOf(data, total, page, per_page);
    },
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;
