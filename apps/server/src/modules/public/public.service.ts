import { ETATS_MOR, objectivePercentage, type ReformeFilters } from '@reformes/domain';
import { and, asc, desc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { covers, natures, reformeCounts, reformes, structures } from '../../db/schema/index.ts';
import { notFound } from '../../http/app-error.ts';
import { pageOf, sliced } from '../../http/pagination.ts';
import { matchesSearch } from '../../http/search.ts';
import { objectifTreesOf } from '../reformes/objectif-trees.ts';
import { countReformes, filterConditions, type ReformeConditions, reformeSearch, reformeWhere } from '../reformes/reforme-pages.ts';

/**
 * What anyone may read of a published reform: no instructions, no workflow stage, no user,
 * no internal assessment (difficulties, solutions, perspectives).
 */
const publicColumns = {
  id: reformes.id,
  libref: reformes.libref,
  typeref: reformes.typeref,
  periodexe: reformes.periodexe,
  date_debut: reformes.date_debut,
  date_fin: reformes.date_fin,
  etat_mor: reformes.etat_mor,
  objectif_glob: reformes.objectif_glob,
  popul_cible: reformes.popul_cible,
  struct_impl: reformes.struct_impl,
  cadreinst_mor: reformes.cadreinst_mor,
  montant_prevu: reformes.montant_prevu,
  montant_trealise: reformes.montant_trealise,
  nature: { id: natures.id, libnature: natures.libnature },
  couverture: { id: covers.id, lib_couvert: covers.lib_couvert },
  structure: { id: structures.id, designation: structures.designation, sigl: structures.sigl },
};

const isPublic = and(eq(reformes.isPublished, true), eq(reformes.is_active, true)) as SQL;

/**
 * The reform's own texts (trigram index), or its nature's or structure's name: those two are looked up
 * first in their small tables, so each branch stays an index condition on reformes and the OR a BitmapOr.
 */
function publicSearch(text: string): SQL | undefined {
  const natureIds = sql`array(select ${natures.id} from ${natures} where ${matchesSearch([natures.libnature], text)})`;
  const structureIds = sql`array(select ${structures.id} from ${structures} where ${matchesSearch([structures.designation, structures.sigl], text)})`;
  return or(reformeSearch(text), sql`${reformes.nature_id} = any(${natureIds})`, sql`${reformes.structure_id} = any(${structureIds})`);
}

/** Published and active, then the visitor's filters: without a text, counted from the counters. */
function conditionsOf(filters: ReformeFilters): ReformeConditions {
  return filterConditions(
    filters,
    [
      ['is_published', true],
      ['is_active', true],
    ],
    [],
    publicSearch,
  );
}

type Measure = { date: string; valeur_realise: string; taux_realisat: string };

/** What a follow-up record shows publicly: no author, no internal id. */
const publicMeasureOf = (suivi: Measure): Measure => ({
  date: suivi.date,
  valeur_realise: suivi.valeur_realise,
  taux_realisat: suivi.taux_realisat,
});

export function createPublicService(db: Db) {
  function rows(where: SQL, limit?: number, offset?: number) {
    const query = db
      .select(publicColumns)
      .from(reformes)
      .innerJoin(natures, eq(natures.id, reformes.nature_id))
      .innerJoin(covers, eq(covers.id, reformes.couverture_id))
      .innerJoin(structures, eq(structures.id, reformes.structure_id))
      .where(where)
      .orderBy(desc(reformes.date_debut), desc(reformes.id))
      .$dynamic();
    return sliced(query, limit, offset);
  }

  return {
    /** Ids of the page first (published index), then the page's rows: a deep page costs its own rows only. */
    async page(filters: ReformeFilters, perPage: number, page: number) {
      const conditions = conditionsOf(filters);
      const where = reformeWhere(conditions) as SQL;
      const [total, ids] = await Promise.all([
        countReformes(db, conditions),
        db
          .select({ id: reformes.id })
          .from(reformes)
          .where(where)
          .orderBy(desc(reformes.date_debut), desc(reformes.id))
          .limit(perPage)
          .offset((page - 1) * perPage),
      ]);
      const data = ids.length
        ? await rows(
            inArray(
              reformes.id,
              ids.map((row) => row.id),
            ),
          )
        : [];
      return pageOf(data, total, page, perPage);
    },

    /** Open data: every published reform matching the filters. */
    all: (filters: ReformeFilters) => rows(reformeWhere(conditionsOf(filters)) as SQL),

    /** Filter options come from the published reforms themselves (architecture §4), read from their counters. */
    async filters() {
      const publishedCounts = sql`${reformeCounts} where ${reformeCounts.is_published} and ${reformeCounts.is_active} and ${reformeCounts.total} > 0`;
      const [structureRows, natureRows, coverRows] = await Promise.all([
        db
          .select({ id: structures.id, designation: structures.designation, sigl: structures.sigl })
          .from(structures)
          .where(sql`${structures.id} in (select structure_id from ${publishedCounts})`)
          .orderBy(asc(structures.designation)),
        db
          .select({ id: natures.id, libnature: natures.libnature })
          .from(natures)
          .where(sql`${natures.id} in (select nature_id from ${publishedCounts})`)
          .orderBy(asc(natures.libnature)),
        db
          .select({ id: covers.id, lib_couvert: covers.lib_couvert })
          .from(covers)
          .where(sql`${covers.id} in (select couverture_id from ${publishedCounts})`)
          .orderBy(asc(covers.lib_couvert)),
      ]);
      return { structures: structureRows, natures: natureRows, covers: coverRows };
    },

    /** General information, objectives with their progress, results with their latest values. */
    async detail(id: number) {
      const [reforme] = await rows(and(isPublic, eq(reformes.id, id)) as SQL, 1);
      if (!reforme) throw notFound();
      const treeOf = await objectifTreesOf(db, [id], { activeOnly: true });
      return {
        ...reforme,
        etat_label: ETATS_MOR.find((etat) => etat.value === reforme.etat_mor)?.label ?? null,
        objectifs: treeOf(id).map((objectif) => ({
          id: objectif.id,
          libobjectif: objectif.libobjectif,
          percentage: objectivePercentage(objectif.results) ?? null,
          results: objectif.results.map((result) => ({
            id: result.id,
            libresult: result.libresult,
            indicateur: result.indicateur,
            valeur_cible: result.valeur_cible,
            valeurref: result.valeurref,
            status: result.status,
            latest: result.suivi_results.slice(-1).map(publicMeasureOf)[0] ?? null,
            suivi_results: result.suivi_results.map(publicMeasureOf),
          })),
        })),
      };
    },
  };
}

export type PublicService = ReturnType<typeof createPublicService>;
