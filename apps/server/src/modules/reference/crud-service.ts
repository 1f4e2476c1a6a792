import type { AuditAction, AuditTargetType, CrudRouteTable } from '@reformes/domain';
import { type AnyColumn, asc, count, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { conflict, notFound } from '../../http/app-error.ts';
import { listOrPage, type PageQuery, sliced } from '../../http/pagination.ts';
import { pgErrorCode } from '../../http/pg-error.ts';
import { matchesSearch } from '../../http/search.ts';
import { recordAudit } from '../audit/audit.service.ts';

export type CrudTable = PgTable & { id: PgColumn; is_active: PgColumn; updated_at: PgColumn };

/** How a resource reads its rows; it counts them on its own table unless its search columns need its joins. */
export interface CrudView {
  rows(where: SQL | undefined, limit?: number, offset?: number): Promise<unknown[]>;
  count?(where: SQL | undefined): Promise<Array<{ total: number }>>;
}

type WriteKind = 'create' | 'update' | 'delete' | 'status';
type Writer = Pick<Db, 'insert' | 'update' | 'delete'>;

/** What a reference resource needs to get its nine routes (spec §7 "Reference resources"). */
export interface CrudResource<TTable extends CrudTable, TSchema extends z.ZodObject> {
  /** Its routes, from packages/domain/src/routes/reference.ts: path, feature, tag, body and row shapes. */
  routes: CrudRouteTable<TSchema>;
  table: TTable;
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

/**
 * The reads and writes of one reference resource: lists (whole or paginated) and searches, one row, create,
 * update, delete and state, with the database's refusals turned into the 409s of the contract.
 */
export function createCrudService<TTable extends CrudTable, TSchema extends z.ZodObject>(db: Db, resource: CrudResource<TTable, TSchema>) {
  const { table } = resource;
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

  return {
    resource,
    list: (query: PageQuery) => listed(undefined, query),

    search: (text: string, query: PageQuery) => listed(matchesSearch(resource.searchColumns, text), query),

    findOne,

    async create(body: Record<string, unknown>) {
      const [created] = await guarded(String(body[labelKey] ?? ''), () =>
        write('create', (writer) =>
          writer
            .insert(table as PgTable)
            .values(body)
            .returning(changed),
        ),
      );
      return findOne(created.id as number);
    },

    async update(id: number, body: z.infer<TSchema>) {
      const values = body as Record<string, unknown>;
      await resource.beforeChange?.(db, id, { kind: 'update', body });
      const updated = await guarded(String(values[labelKey] ?? ''), () =>
        write('update', (writer) =>
          writer
            .update(table as PgTable)
            .set({ ...values, updated_at: new Date() })
            .where(eq(table.id, id))
            .returning(changed),
        ),
      );
      if (updated.length === 0) throw notFound();
      return findOne(id);
    },

    async remove(id: number) {
      await resource.beforeChange?.(db, id, { kind: 'delete' });
      const deleted = await guarded(undefined, () =>
        write('delete', (writer) =>
          writer
            .delete(table as PgTable)
            .where(eq(table.id, id))
            .returning(changed),
        ),
      );
      if (deleted.length === 0) throw notFound();
    },

    async setActive(id: number, isActive: boolean) {
      const updated = await write(
        'status',
        (writer) =>
          writer
            .update(table as PgTable)
            .set({ is_active: isActive, updated_at: new Date() })
            .where(eq(table.id, id))
            .returning(changed),
        { is_active: isActive },
      );
      if (updated.length === 0) throw notFound();
      return findOne(id);
    },
  };
}

export type CrudService<TTable extends CrudTable, TSchema extends z.ZodObject> = ReturnType<typeof createCrudService<TTable, TSchema>>;
