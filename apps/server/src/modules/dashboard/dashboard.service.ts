import { type DashboardData, ETATS_MOR, pendingStageOf, seesAllStructures } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export interface DashboardView extends DashboardData {
  by_etat: Array<{ etat_mor: string; label: string; total: number }>;
  by_nature: Array<{ libnature: string; total: number }>;
}

/** Live counters for a role's view, within a structure (undefined: all structures) or the role's own scope. */
export async function computeDashboard(db: Db, role: string | undefined, structureId: number | undefined): Promise<DashboardView> {
  const scope = seesAllStructures(role) || structureId === undefined ? sql`true` : sql`r.structure_id = ${structureId}`;
  const stage = pendingStageOf(role) ?? null;
  const counters = await db.execute<Omit<DashboardData, never>>(sql`
    select
      count(*)::int as total_reforme,
      count(*) filter (where n.libnature = 'Administrative')::int as total_reforme_admin,
      count(*) filter (where n.libnature = 'Institutionnelle')::int as total_reforme_ins,
      count(*) filter (where r.stage = ${stage} and not r.is_published)::int as total_pending,
      (select count(*)::int from users) as users,
      (select count(*)::int from structures) as total_structures
    from reformes r join natures n on n.id = r.nature_id
    where r.is_active and ${scope}`);
  const byEtat = await db.execute<{ etat_mor: string; total: number }>(sql`
    select r.etat_mor, count(*)::int as total from reformes r
    where r.is_active and r.etat_mor is not null and ${scope} group by r.etat_mor`);
  const byNature = await db.execute<{ libnature: string; total: number }>(sql`
    select n.libnature, count(r.id)::int as total from natures n
    left join reformes r on r.nature_id = n.id and r.is_active and ${scope}
    group by n.libnature order by n.libnature`);
  const etatTotals = new Map(byEtat.rows.map((row) => [row.etat_mor, row.total]));
  return {
    ...counters.rows[0],
    by_etat: ETATS_MOR.map((etat) => ({ etat_mor: etat.value, label: etat.label, total: etatTotals.get(etat.value) ?? 0 })),
    by_nature: byNature.rows,
  };
}
