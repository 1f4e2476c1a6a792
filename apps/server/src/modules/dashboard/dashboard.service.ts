import { type DashboardView, ETATS_MOR, type NatureCode, pendingStageOf, seesAllStructures } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

interface DashboardGroup {
  nature_id: number;
  etat_mor: string | null;
  stage: number;
  is_published: boolean;
  total: number;
}

type DashboardRow = {
  groups: DashboardGroup[];
  natures: Array<{ id: number; code: string | null; libnature: string }>;
  users: number;
  total_structures: number;
};

const sum = (groups: DashboardGroup[]) => groups.reduce((total, group) => total + group.total, 0);

/**
 * Live counters for a role's view, within a structure (undefined: all structures) or the role's own scope.
 * One statement over the counters that triggers keep (table reforme_counts, migration 0002), grouped by
 * (nature, état, stage, published): a few dozen groups at most, whatever the number of reforms, and every
 * figure of the dashboard is a sum of those groups. Natures are matched by their id and stable code, never by label.
 */
export async function computeDashboard(db: Db, role: string | undefined, structureId: number | undefined): Promise<DashboardView> {
  const scope = seesAllStructures(role) || structureId === undefined ? sql`true` : sql`r.structure_id = ${structureId}`;
  const result = await db.execute<DashboardRow>(sql`
    with g as (
      select r.nature_id, nullif(r.etat_mor, '') as etat_mor, r.stage, r.is_published, sum(r.total)::int as total
      from reforme_counts r where r.is_active and r.total > 0 and ${scope}
      group by r.nature_id, r.etat_mor, r.stage, r.is_published
    )
    select
      (select coalesce(json_agg(g), '[]'::json) from g) as groups,
      (select coalesce(json_agg(json_build_object('id', n.id, 'code', n.code, 'libnature', n.libnature) order by n.libnature), '[]'::json)
        from natures n) as natures,
      (select count(*)::int from users) as users,
      (select count(*)::int from structures) as total_structures`);
  const { groups, natures, users, total_structures } = result.rows[0];
  const natureId = (code: NatureCode) => natures.find((nature) => nature.code === code)?.id;
  const stage = pendingStageOf(role);
  return {
    total_reforme: sum(groups),
    total_reforme_admin: sum(groups.filter((group) => group.nature_id === natureId('administrative'))),
    total_reforme_ins: sum(groups.filter((group) => group.nature_id === natureId('institutionnelle'))),
    total_pending: sum(groups.filter((group) => group.stage === stage && !group.is_published)),
    users,
    total_structures,
    by_etat: ETATS_MOR.map((etat) => ({
      etat_mor: etat.value,
      label: etat.label,
      total: sum(groups.filter((group) => group.etat_mor === etat.value)),
    })),
    by_nature: natures.map((nature) => ({ ...nature, total: sum(groups.filter((group) => group.nature_id === nature.id)) })),
  };
}

/** The dashboard's reads, for its routes. */
export function createDashboardService(db: Db) {
  return { compute: (role: string | undefined, structureId: number | undefined) => computeDashboard(db, role, structureId) };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
