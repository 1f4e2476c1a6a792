import { createHash } from 'node:crypto';
import { ETATS_MOR, objectivePercentage, PUBLIC_EXPORT_MESSAGES, PUBLIC_EXPORTS_PER_CLIENT, type ReformeFilters } from '@reformes/domain';
import { and, asc, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import { PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { keptPage, reformesList } from '../../db/lists/index.ts';
import { covers, natures, reformeCounts, reformes, structures } from '../../db/schema/index.ts';
import { notFound, tooManyRequests } from '../../http/app-error.ts';
import { sliced } from '../../http/pagination.ts';
import { matchesSearch } from '../../http/search.ts';
import { createRateLimits } from '../auth/throttles.ts';
import { objectifTreesOf } from '../reformes/objectif-trees.ts';
import { reformeFilters, reformeSearch } from '../reformes/reforme-filters.ts';

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

/** Published and active, then the visitor's filters. */
function conditionsOf(filters: ReformeFilters): SQL {
  return and(eq(reformes.isPublished, true), eq(reformes.is_active, true), ...reformeFilters(filters, publicSearch)) as SQL;
}

type Measure = { date: string; valeur_realise: string; taux_realisat: string };

/** What a follow-up record shows publicly: no author, no internal id. */
const publicMeasureOf = (suivi: Measure): Measure => ({
  date: suivi.date,
  valeur_realise: suivi.valeur_realise,
  taux_realisat: suivi.taux_realisat,
});

/**
 * Published reforms with their public fields (and `extra` columns), newest start first: the public order, served by
 * reformes_published_idx.
 */
function selectPublic<Extra extends Record<string, SQL.Aliased>>(db: Db, where: SQL, extra?: Extra) {
  return db
    .select({ ...publicColumns, ...(extra ?? ({} as Extra)) })
    .from(reformes)
    .innerJoin(natures, eq(natures.id, reformes.nature_id))
    .innerJoin(covers, eq(covers.id, reformes.couverture_id))
    .innerJoin(structures, eq(structures.id, reformes.structure_id))
    .where(where)
    .orderBy(desc(reformes.date_debut), desc(reformes.id))
    .$dynamic();
}

function rowsOf(db: Db, where: SQL, limit?: number, offset?: number) {
  return sliced(selectPublic(db, where), limit, offset);
}

export type PublicRow = Awaited<ReturnType<typeof rowsOf>>[number];

/** Reforms read per query of an open-data download: one batch is all it holds in memory. */
export const EXPORT_BATCH = 500;
const EXPORT_BUSY_RETRY_SECONDS = 5;
/** Downloads under way in one process, each with a batch of rows in memory (a few MB of long texts at most). */
export const MAX_OPEN_EXPORTS = 8;

/** An open-data download under way: its ETag, its batches, and its place among MAX_OPEN_EXPORTS until `release`. */
export interface PublicExport {
  etag: string;
  /** Reads the first batch (a failure is still an error answer), then the others as they are consumed. */
  batches(): Promise<AsyncGenerator<PublicRow[]>>;
  /** Frees the download's place (MAX_OPEN_EXPORTS, PUBLIC_EXPORTS_PER_CLIENT); safe to call more than once. */
  release(): Promise<void>;
}

/**
 * A fingerprint of what the download would contain, read without reading the file: the count
 * and the transaction ids (xmin) of the reforms it lists, and of the labels it joins. Any committed insert,
 * update or delete of one of them changes it, and it never comes back to an earlier value.
 */
async function etagOf(db: Db, where: SQL): Promise<string> {
  const stateOf = (from: SQL) => sql`(select count(*)::text || ':' || coalesce(sum(xmin::text::bigint), 0)::text from ${from})`;
  const [{ state }] = (
    await db.execute<{ state: string }>(
      sql`select ${stateOf(sql`${reformes} where ${where}`)} || '/' || ${stateOf(sql`${natures}`)} || '/' || ${stateOf(sql`${covers}`)} || '/' || ${stateOf(sql`${structures}`)} as state`,
    )
  ).rows;
  return `"${createHash('sha256').update(state).digest('base64url').slice(0, 27)}"`;
}

/**
 * The rows in the public order, by keyset on (date_debut, id): no deep offset, one batch in memory. The first
 * batch is read before the file starts, so that a failure is still an error answer and not a file cut short.
 */
async function batchesOf(db: Db, where: SQL, release: () => Promise<void>, size: number): Promise<AsyncGenerator<PublicRow[]>> {
  const next = async (after?: PublicRow) => {
    const keyset = after ? sql`(${reformes.date_debut}, ${reformes.id}) < (${after.date_debut}::date, ${after.id}::int)` : undefined;
    return rowsOf(db, and(where, keyset) as SQL, size);
  };
  let rows: PublicRow[] | undefined = await next();
  return (async function* () {
    try {
      while (rows !== undefined && rows.length > 0) {
        const batch = rows;
        // Forgotten before the next read: the batch being written is the only one in memory.
        rows = undefined;
        yield batch;
        if (batch.length < size) return;
        rows = await next(batch[batch.length - 1]);
      }
    } finally {
      await release();
    }
  })();
}

export interface PublicServiceOptions {
  /** PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE. */
  exportMaxPerIpPerMinute?: number;
  /** Tests only: reforms per query of a download. */
  exportBatch?: number;
}

export function createPublicService(
  db: Db,
  { exportMaxPerIpPerMinute = PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE, exportBatch = EXPORT_BATCH }: PublicServiceOptions = {},
) {
  const rows = (where: SQL, limit?: number, offset?: number) => rowsOf(db, where, limit, offset);
  const rateLimits = createRateLimits(db);
  let openExports = 0;
  const openByClient = new Map<string, number>();

  return {
    /**
     * A page at first-page cost whatever its number (db/lists), newest start first: its ids by keyset from the
     * published index, its rows for those ids only.
     */
    page: (filters: ReformeFilters, perPage: number, page: number) =>
      keptPage(db, {
        list: reformesList,
        name: 'public',
        where: conditionsOf(filters),
        order: 'start',
        loadRows: (at) => selectPublic(db, at.inPage, { version: at.version }),
        page,
        pageSize: perPage,
      }),

    /** 429 past PUBLIC_EXPORT_MAX_PER_IP_PER_MINUTE downloads from `ip`, counted in the database for all instances. */
    async throttleExport(ip: string): Promise<void> {
      const wait = await rateLimits.hit(`public-export-ip:${ip}`, exportMaxPerIpPerMinute, 60);
      if (wait !== undefined) throw tooManyRequests(PUBLIC_EXPORT_MESSAGES.tooMany(wait), wait);
    },

    /**
     * Open data: every published reform matching the filters, in batches, each its own query on the pool: a slow
     * reader holds one batch in memory and no connection (a snapshot held for the whole download kept a pooled
     * client per reader, and four readers starved the embedded database's pool of 3). A reform published or
     * withdrawn during a download may be in it or not, as between the pages of any list; its ETag, taken first,
     * changes for the next download. `release` (or the last batch) frees the download's place, and its client's.
     */
    async openExport(filters: ReformeFilters, client: string): Promise<PublicExport> {
      const clientOpen = openByClient.get(client) ?? 0;
      if (clientOpen >= PUBLIC_EXPORTS_PER_CLIENT) {
        throw tooManyRequests(PUBLIC_EXPORT_MESSAGES.busyForClient, EXPORT_BUSY_RETRY_SECONDS);
      }
      if (openExports >= MAX_OPEN_EXPORTS) throw tooManyRequests(PUBLIC_EXPORT_MESSAGES.busy, EXPORT_BUSY_RETRY_SECONDS);
      openExports += 1;
      openByClient.set(client, clientOpen + 1);
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        openExports -= 1;
        const left = (openByClient.get(client) ?? 1) - 1;
        if (left > 0) openByClient.set(client, left);
        else openByClient.delete(client);
      };
      try {
        const where = conditionsOf(filters);
        const etag = await etagOf(db, where);
        const batches = () =>
          batchesOf(db, where, release, exportBatch).catch(async (error: unknown) => {
            await release();
            throw error;
          });
        return { etag, batches, release };
      } catch (error) {
        await release();
        throw error;
      }
    },

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
