import { type AuditAction, type AuditTargetType, type FeatureName, idParamsSchema, MESSAGES, stateParamSchema } from '@reformes/domain';
import { type AnyColumn, asc, count, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { recordAudit } from '../modules/audit/audit.service.ts';
import { conflict, notFound } from './app-error.ts';
import { listEnvelope, ok } from './envelope.ts';
import { listOrPage, type PageQuery, pageQuerySchema, searchBodySchema, searchPageOf, sliced } from './pagination.ts';
import { pgErrorCode } from './pg-error.ts';
import { matchesSearch } from './search.ts';

type CrudTable = PgTable & { id: PgColumn; is_active: PgColumn; updated_at: PgColumn };

/** How a resource reads its rows; it counts them on its own table unless its search columns need its joins. */
export interface CrudView {
  rows(where: SQL | undefined, limit?: number, offset?: number): Promise<unknown[]>;
  count?(where: SQL | undefined): Promise<Array<{ total: number }>>;
}

/** What a reference resource needs to get its nine routes (spec §7 "Reference resources"). */
export interface CrudResource<TTable extends CrudTable, TSchema extends z.ZodObject> {
  /** Path segment under the API base: `sectors` gives `/sectors`, `/sectors/{id}`, `/sectors-search`... */
  path: string;
  feature: FeatureName;
  /** OpenAPI tag and the French name of the list. */
  tag: string;
  table: TTable;
  /** Body of create and update, from packages/domain. */
  schema: TSchema;
  /** The column whose duplicates are refused with a 409. */
  labelColumn: PgColumn;
  /** Columns the search looks at (spec §3 "Local search filter"). */
  searchColumns: AnyColumn[];
  /** Why a row cannot be deleted while other rows refer to it. */
  inUseMessage: string;
  /** Rows as the API shows them; defaults to the table's own columns. */
  select?: (db: Db) => CrudView;
  /** A rule that may refuse an update or a delete (throws an AppError). */
  beforeChange?: (db: Db, id: number, change: { kind: 'update'; body: z.infer<TSchema> } | { kind: 'delete' }) => Promise<void>;
  /** Changes written to the security audit log (roles), in the change's transaction, named by the label column. */
  audit?: { target: AuditTargetType; actions: Partial<Record<WriteKind, AuditAction>> };
}

type WriteKind = 'create' | 'update' | 'delete' | 'status';
type Writer = Pick<Db, 'insert' | 'update' | 'delete'>;

/**
 * One route factory for every reference list: list (whole or paginated), show, create,
 * update, delete, state 0/1 and `POST {path}-search`, each behind the guard with the
 * resource's feature and the matching action.
 */
export function crudRoutes<TTable extends CrudTable, TSchema extends z.ZodObject>(
  resource: CrudResource<TTable, TSchema>,
): FastifyPluginAsyncZod<{ db: Db }> {
  const { table, feature, path, tag } = resource;
  const tags = [tag];
  const idParams = idParamsSchema;
  const access = (action: 'list' | 'show' | 'add' | 'edit' | 'delete' | 'status') => ({ access: { feature, action } });

  return async (app, { db }) => {
    const view: CrudView = resource.select?.(db) ?? {
      rows: (where: SQL | undefined, limit?: number, offset?: number) => {
        const query = db
          .select()
          .from(table as PgTable)
          .where(where)
          .orderBy(asc(table.id))
          .$dynamic();
        return sliced(query, limit, offset);
      },
    };
    const countOf =
      view.count ??
      ((where: SQL | undefined) =>
        db
          .select({ total: count() })
          .from(table as PgTable)
          .where(where));

    function listed(where: SQL | undefined, query: PageQuery) {
      return listOrPage(
        query,
        (limit, offset) => view.rows(where, limit, offset),
        async () => (await countOf(where))[0].total,
      );
    }

    async function findOne(id: number) {
      const [row] = await view.rows(eq(table.id, id), 1);
      if (!row) throw notFound();
      return row;
    }

    /** Turns the database's refusals into the 409s of the contract. */
    async function guarded<T>(label: string | undefined, work: () => Promise<T>): Promise<T> {
      try {
        return await work();
      } catch (error) {
        if (pgErrorCode(error) === '23505') throw conflict(`Le libellé « ${label ?? ''} » existe déjà.`);
        if (pgErrorCode(error) === '23503' || pgErrorCode(error) === '23001') throw conflict(resource.inUseMessage);
        throw error;
      }
    }

    const labelKey = resource.labelColumn.name;

    /** Runs a write returning `{id, label}` rows; an audited one is recorded in the same transaction. */
    async function write(kind: WriteKind, work: (writer: Writer) => Promise<Array<{ id: unknown; label: unknown }>>, details?: object) {
      const action = resource.audit?.actions[kind];
      if (!resource.audit || !action) return work(db);
      const { target } = resource.audit;
      return db.transaction(async (tx) => {
        const rows = await work(tx);
        if (rows[0]) {
          const [{ id, label }] = rows;
          await recordAudit(tx, { action, target: { type: target, id: Number(id), label: String(label) }, details: { ...details } });
        }
        return rows;
      });
    }
    const changed = { id: table.id, label: resource.labelColumn };

    app.get(
      `/${path}`,
      { config: access('list'), schema: { tags, summary: `Liste : ${tag}`, querystring: pageQuerySchema } },
      async (request) => listEnvelope(await listed(undefined, request.query)),
    );

    app.post(
      `/${path}-search`,
      {
        config: access('list'),
        schema: { tags, summary: `Recherche paginée : ${tag}`, querystring: pageQuerySchema, body: searchBodySchema },
      },
      async (request) =>
        listEnvelope(await listed(matchesSearch(resource.searchColumns, request.body.search), searchPageOf(request.query, request.body))),
    );

    app.get(`/${path}/:id`, { config: access('show'), schema: { tags, summary: `Détail : ${tag}`, params: idParams } }, async (request) =>
      ok(await findOne(request.params.id), MESSAGES.found),
    );

    app.post(
      `/${path}`,
      { config: access('add'), schema: { tags, summary: `Création : ${tag}`, body: resource.schema } },
      async (request, reply) => {
        const body = request.body as Record<string, unknown>;
        const [created] = await guarded(String(body[labelKey] ?? ''), () =>
          write('create', (writer) =>
            writer
              .insert(table as PgTable)
              .values(body)
              .returning(changed),
          ),
        );
        reply.status(201);
        return ok(await findOne(created.id as number), MESSAGES.created);
      },
    );

    app.put(
      `/${path}/:id`,
      { config: access('edit'), schema: { tags, summary: `Modification : ${tag}`, params: idParams, body: resource.schema } },
      async (request) => {
        const body = request.body as Record<string, unknown>;
        await resource.beforeChange?.(db, request.params.id, { kind: 'update', body: request.body as z.infer<TSchema> });
        const updated = await guarded(String(body[labelKey] ?? ''), () =>
          write('update', (writer) =>
            writer
              .update(table as PgTable)
              .set({ ...body, updated_at: new Date() })
              .where(eq(table.id, request.params.id))
              .returning(changed),
          ),
        );
        if (updated.length === 0) throw notFound();
        return ok(await findOne(request.params.id), MESSAGES.updated);
      },
    );

    app.delete(
      `/${path}/:id`,
      { config: access('delete'), schema: { tags, summary: `Suppression : ${tag}`, params: idParams } },
      async (request) => {
        await resource.beforeChange?.(db, request.params.id, { kind: 'delete' });
        const deleted = await guarded(undefined, () =>
          write('delete', (writer) =>
            writer
              .delete(table as PgTable)
              .where(eq(table.id, request.params.id))
              .returning(changed),
          ),
        );
        if (deleted.length === 0) throw notFound();
        return { message: MESSAGES.deleted };
      },
    );

    app.get(
      `/${path}/:id/state/:state`,
      { config: access('status'), schema: { tags, summary: `Activation / désactivation : ${tag}`, params: stateParamSchema } },
      async (request) => {
        const isActive = request.params.state === '1';
        const updated = await write(
          'status',
          (writer) =>
            writer
              .update(table as PgTable)
              .set({ is_active: isActive, updated_at: new Date() })
              .where(eq(table.id, request.params.id))
              .returning(changed),
          { is_active: isActive },
        );
        if (updated.length === 0) throw notFound();
        return ok(await findOne(request.params.id), isActive ? MESSAGES.activated : MESSAGES.deactivated);
      },
    );
  };
}
