import { choosesStructure, creationStageOf, REFORME_MESSAGES, type Reforme, type ReformeFilters, treatmentStageOf } from '@reformes/domain';
import { and, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { keptPage, mapRows, reformesList } from '../../db/lists/index.ts';
import { affectations, covers, natures, reformeFiles, reformes, structures, users } from '../../db/schema/index.ts';
import { invalid } from '../../http/app-error.ts';
import type { AuthContext } from '../../http/guard.ts';
import type { PageQuery } from '../../http/pagination.ts';
import type { DocumentStore } from '../../storage/file-store.ts';
import { withChemin } from './file-chemin.ts';
import { objectifTreesOf } from './objectif-trees.ts';
import { reformeFilters, reformeSearch } from './reforme-filters.ts';
import { findChangeableReforme, findReformeInScope, reformeScope } from './reforme-scope.ts';
import { reformeValuesOf } from './reforme-values.ts';
import { actAs } from './timeline.service.ts';

export const REFORME_FILES_FOLDER = 'reformes';

const { search_text: _searchText, ...reformeColumns } = getTableColumns(reformes);

const rowColumns = {
  ...reformeColumns,
  nature: { id: natures.id, libnature: natures.libnature },
  couverture: { id: covers.id, lib_couvert: covers.lib_couvert },
  structure: { id: structures.id, designation: structures.designation, sigl: structures.sigl },
  files: sql<
    Array<{ id: number; name_file: string }>
  >`coalesce((select json_agg(json_build_object('id', f.id, 'name_file', f.name_file) order by f.id)
    from reforme_files f where f.reforme_id = ${reformes.id}), '[]'::json)`.as('files'),
};

export function createReformesService({ db, files }: { db: Db; files: DocumentStore }) {
  /** The rows of reforms, with their labels and attachments, as the lists show them. */
  function rowsWhere<Extra extends Record<string, SQL.Aliased>>(where: SQL | undefined, extra?: Extra) {
    return db
      .select({ ...rowColumns, ...(extra ?? ({} as Extra)) })
      .from(reformes)
      .innerJoin(natures, eq(natures.id, reformes.nature_id))
      .innerJoin(covers, eq(covers.id, reformes.couverture_id))
      .innerJoin(structures, eq(structures.id, reformes.structure_id))
      .where(where)
      .$dynamic();
  }

  /** The rows of these reforms in the order of `ids`. */
  async function rowsOf(ids: number[]) {
    if (ids.length === 0) return [];
    const found = await rowsWhere(inArray(reformes.id, ids));
    const byId = new Map(found.map((row) => [row.id, { ...row, files: row.files.map(withChemin) }]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * A page of reforms, newest registration first, with their labels and attachments (db/lists: its ids from the
   * list's index by keyset from the nearest anchor, then the rows of those ids only, in one statement).
   */
  async function page(where: SQL | undefined, query: PageQuery) {
    const found = await keptPage(db, {
      list: reformesList,
      name: 'reformes',
      where,
      order: 'registration',
      loadRows: (at) => rowsWhere(at.inPage, { version: at.version }).orderBy(...at.orderBy),
      page: query.page,
      pageSize: query.per_page,
    });
    return mapRows(found, (rows) => rows.map((row) => ({ ...row, files: row.files.map(withChemin) })));
  }

  /** Attaches uploads that wait for a reform; only the uploader's own pending files can be claimed. */
  async function attachFiles(tx: Pick<Db, 'update'>, auth: AuthContext, reformeId: number, fileIds: number[] | undefined) {
    if (!fileIds?.length) return;
    const unique = [...new Set(fileIds)];
    const attached = await tx
      .update(reformeFiles)
      .set({ reforme_id: reformeId })
      .where(and(inArray(reformeFiles.id, unique), isNull(reformeFiles.reforme_id), eq(reformeFiles.created_by, auth.userId)))
      .returning({ id: reformeFiles.id });
    if (attached.length !== unique.length) throw invalid({ files: [REFORME_MESSAGES.unknownFiles] });
  }

  async function detail(auth: AuthContext, id: number) {
    await findReformeInScope(db, auth, id);
    const [row] = await rowsOf([id]);
    const objectifsOf = await objectifTreesOf(db, [id]);
    const fileRows = await db
      .select({
        id: reformeFiles.id,
        name_file: reformeFiles.name_file,
        original_name: reformeFiles.original_name,
        size: reformeFiles.size,
        created_at: reformeFiles.created_at,
      })
      .from(reformeFiles)
      .where(eq(reformeFiles.reforme_id, id))
      .orderBy(reformeFiles.id);
    const history = await db
      .select({
        id: affectations.id,
        event: affectations.event,
        sens: affectations.sens,
        from_stage: affectations.from_stage,
        to_stage: affectations.to_stage,
        instruction: affectations.instruction,
        created_at: affectations.created_at,
        user: sql<string | null>`nullif(concat_ws(' ', ${users.firstname}, ${users.lastname}), '')`,
      })
      .from(affectations)
      .leftJoin(users, eq(users.id, affectations.user_id))
      .where(eq(affectations.reforme_id, id))
      .orderBy(affectations.created_at, affectations.id);
    const last = history.at(-1);
    return {
      ...row,
      objectifs: objectifsOf(id).map((objectif) => ({ ...objectif, reforme: { id, libref: row.libref } })),
      files: fileRows.map(withChemin),
      history,
      // The instruction of a return for correction shows while the reform waits where it was sent back.
      affectation: last && last.sens === 1 && last.to_stage === row.stage ? { instruction: last.instruction } : null,
    };
  }

  return {
    list: (auth: AuthContext, filters: ReformeFilters, query: PageQuery) =>
      page(and(reformeScope(auth), ...reformeFilters(filters)), query),

    myList: (auth: AuthContext, filters: ReformeFilters, query: PageQuery) =>
      page(and(eq(reformes.created_by, auth.userId), ...reformeFilters(filters)), query),

    /** The reforms waiting at the caller's stage, in its scope ("A transmettre", "A valider", "A publier"). */
    byRole(auth: AuthContext, filters: ReformeFilters, query: PageQuery) {
      const stage = treatmentStageOf(auth.role);
      if (!stage) return page(sql`false`, query);
      return page(and(reformeScope(auth), eq(reformes.stage, stage), eq(reformes.isPublished, false), ...reformeFilters(filters)), query);
    },

    search: (auth: AuthContext, text: string, query: PageQuery) => page(and(reformeScope(auth), reformeSearch(text)), query),

    detail,

    async create(auth: AuthContext, input: Reforme) {
      const structureId = choosesStructure(auth.role) && input.structure_id ? input.structure_id : auth.structureId;
      const stage = creationStageOf(auth.role);
      const id = await db.transaction(async (tx) => {
        await actAs(tx, auth);
        const [created] = await tx
          .insert(reformes)
          .values({ ...reformeValuesOf(input), stage, structure_id: structureId, created_by: auth.userId })
          .returning({ id: reformes.id });
        await tx.insert(affectations).values({ reforme_id: created.id, sens: 0, event: 'creation', to_stage: stage, user_id: auth.userId });
        await attachFiles(tx, auth, created.id, input.files);
        return created.id;
      });
      return detail(auth, id);
    },

    async update(auth: AuthContext, id: number, input: Reforme) {
      await db.transaction(async (tx) => {
        await actAs(tx, auth);
        await findChangeableReforme(tx, auth, id, 'edit');
        await tx
          .update(reformes)
          .set({
            ...reformeValuesOf(input),
            ...(choosesStructure(auth.role) && input.structure_id ? { structure_id: input.structure_id } : {}),
            updated_at: new Date(),
          })
          .where(eq(reformes.id, id));
        await attachFiles(tx, auth, id, input.files);
      });
      return detail(auth, id);
    },

    /**
     * Objectives, results, history and attachments go with the reform; the change rule has already kept
     * a reform with follow-up records (or a published one) from coming here. Stored files are removed
     * once the rows are gone for good.
     */
    async remove(auth: AuthContext, id: number) {
      const stored = await db.transaction(async (tx) => {
        await actAs(tx, auth);
        await findChangeableReforme(tx, auth, id, 'delete');
        const names = await tx.select({ name: reformeFiles.name }).from(reformeFiles).where(eq(reformeFiles.reforme_id, id));
        await tx.delete(reformes).where(eq(reformes.id, id));
        return names;
      });
      await Promise.all(stored.map((file) => files.remove(REFORME_FILES_FOLDER, file.name)));
    },

    async setActive(auth: AuthContext, id: number, isActive: boolean) {
      await db.transaction(async (tx) => {
        await actAs(tx, auth);
        await findChangeableReforme(tx, auth, id, 'status');
        await tx.update(reformes).set({ is_active: isActive, updated_at: new Date() }).where(eq(reformes.id, id));
      });
      return detail(auth, id);
    },
  };
}

export type ReformesService = ReturnType<typeof createReformesService>;
