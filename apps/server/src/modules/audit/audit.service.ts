import {
  type AuditAction,
  type AuditFilters,
  type AuditResult,
  type AuditTargetType,
  auditActionsMatching,
  auditPeriodOf,
  normalizeSearchText,
} from '@reformes/domain';
import { and, count, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { auditLog, backups, jobs, permissions, reformes, roles, users } from '../../db/schema/index.ts';
import { listOrPage, type PageQuery } from '../../http/pagination.ts';
import { currentRequest } from '../../http/request-context.ts';
import { matchesFoldedColumn } from '../../http/search.ts';

export interface AuditEvent {
  action: AuditAction;
  /** 'success' unless said otherwise. */
  result?: AuditResult;
  /**
   * Who acted: by default the signed-in caller of the request being served. A sign-in names its account, or
   * only the email as typed when no account has it; `{}` says nobody (a command-line tool).
   */
  actor?: { id?: number | null; email?: string | null };
  /** What was acted on; without a label, the current name of the row (read before a delete, or pass it). */
  target?: { type: AuditTargetType; id?: number | null; label?: string | null };
  /** A few facts (`{reason: 'wrong_password'}`, `{permissions: [...]}`); anything that looks like a secret is dropped. */
  details?: Record<string, unknown>;
  /** By default the IP address of the request being served; a hook that runs before the handler passes it. */
  ip?: string | null;
}

/** Keys never written, however deep: an entry carries no password, token, hash, code or key. */
const SECRET_KEY = /pass|token|hash|secret|code|otp|key|cookie|authori[sz]ation/i;

/** `withoutSecrets({reason: 'x', password: 'y'})` is `{reason: 'x'}`. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !SECRET_KEY.test(key))
        .map(([key, item]) => [key, withoutSecrets(item)]),
    );
  }
  return value;
}

/** The current name of a target row, read in the writing statement. */
function labelOf(type: AuditTargetType, id: number): SQL {
  switch (type) {
    case 'user':
      return sql`(select ${users.email} from ${users} where ${users.id} = ${id})`;
    case 'role':
      return sql`(select ${roles.name} from ${roles} where ${roles.id} = ${id})`;
    case 'permission':
      return sql`(select ${permissions.name} from ${permissions} where ${permissions.id} = ${id})`;
    case 'backup':
      return sql`(select ${backups.name} from ${backups} where ${backups.id} = ${id})`;
    case 'reforme':
      return sql`(select ${reformes.libref} from ${reformes} where ${reformes.id} = ${id})`;
    case 'job':
      return sql`(select ${jobs.payload}->>'to' from ${jobs} where ${jobs.id} = ${id})`;
  }
}

/**
 * Writes one entry. Pass the transaction of the change it records, so that a change rolled back leaves no
 * entry (and an entry that cannot be written rolls the change back); a refused attempt (a failed sign-in) is
 * written on its own, with `db`. The IP address and, by default, the actor come from the request being served.
 */
export async function recordAudit(executor: Pick<Db, 'insert'>, event: AuditEvent): Promise<void> {
  const request = currentRequest();
  const actorId = event.actor === undefined ? (request?.auth?.userId ?? null) : (event.actor.id ?? null);
  const actorEmail = event.actor?.email?.trim() || null;
  const { target } = event;
  const targetId = target?.id ?? null;
  await executor.insert(auditLog).values({
    actor_id: actorId,
    actor_email: actorEmail ?? (actorId === null ? null : sql`(select ${users.email} from ${users} where ${users.id} = ${actorId})`),
    action: event.action,
    target_type: target?.type ?? null,
    target_id: targetId,
    target_label: target?.label ?? (target && targetId !== null ? labelOf(target.type, targetId) : null),
    result: event.result ?? 'success',
    ip: event.ip === undefined ? (request?.ip ?? null) : event.ip,
    details: withoutSecrets(event.details ?? {}) as Record<string, unknown>,
  });
}

/** The columns an entry shows (the folded search text stays inside). */
const entryColumns = {
  id: auditLog.id,
  created_at: auditLog.created_at,
  actor_id: auditLog.actor_id,
  actor_email: auditLog.actor_email,
  action: auditLog.action,
  target_type: auditLog.target_type,
  target_id: auditLog.target_id,
  target_label: auditLog.target_label,
  result: auditLog.result,
  ip: auditLog.ip,
  details: auditLog.details,
};

export interface AuditRow {
  id: number;
  created_at: Date;
  actor_id: number | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: number | null;
  target_label: string | null;
  result: AuditResult;
  ip: string | null;
  details: Record<string, unknown>;
}

/** How many entries the export reads at a time: at most this many sit in memory. */
export const EXPORT_PAGE_SIZE = 1000;

function whereOf(filters: AuditFilters): SQL | undefined {
  const search = filters.search?.trim();
  const actions = search ? auditActionsMatching(search) : [];
  const text = search ? matchesFoldedColumn(auditLog.search_text, search) : undefined;
  const actorTerm = normalizeSearchText(filters.actor ?? '').replace(/[\\%_]/g, (char) => `\\${char}`);
  // The expression of the trigram index audit_log_actor_email_trgm_idx.
  const actor = actorTerm ? sql`lower(${auditLog.actor_email}) like ${`%${actorTerm}%`}` : undefined;
  return and(
    filters.action ? eq(auditLog.action, filters.action) : undefined,
    filters.result ? eq(auditLog.result, filters.result) : undefined,
    actor,
    filters.from ? gte(auditLog.created_at, auditPeriodOf(filters.from).start) : undefined,
    filters.to ? lt(auditLog.created_at, auditPeriodOf(filters.to).end) : undefined,
    actions.length > 0 ? or(text, inArray(auditLog.action, actions)) : text,
  );
}

/** The journal's screen and export: newest first, filtered, paged with the true total. */
export function createAuditService(db: Db) {
  return {
    /** Reading the whole journal at once is itself worth a line in it, with the filters used. */
    recordExport(filters: AuditFilters) {
      const used = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined && value !== ''));
      return recordAudit(db, { action: 'audit.export', details: { filters: used } });
    },

    list(query: PageQuery & AuditFilters) {
      const where = whereOf(query);
      return listOrPage(
        query,
        (limit, offset): Promise<AuditRow[]> =>
          db
            .select(entryColumns)
            .from(auditLog)
            .where(where)
            .orderBy(desc(auditLog.created_at), desc(auditLog.id))
            .limit(limit)
            .offset(offset),
        async () => (await db.select({ total: count() }).from(auditLog).where(where))[0].total,
      );
    },

    /**
     * The filtered entries, newest first, `size` at a time: each page starts after the last entry of the one
     * before (no OFFSET to skip, and an entry written meanwhile is newer, so it neither shifts nor repeats rows).
     */
    async *pages(filters: AuditFilters, size = EXPORT_PAGE_SIZE): AsyncGenerator<AuditRow[]> {
      const where = whereOf(filters);
      let after: { at: string; id: number } | undefined;
      for (;;) {
        const rows = await db
          .select({ ...entryColumns, at: sql<string>`${auditLog.created_at}::text` })
          .from(auditLog)
          .where(and(where, after ? sql`(${auditLog.created_at}, ${auditLog.id}) < (${after.at}::timestamptz, ${after.id})` : undefined))
          .orderBy(desc(auditLog.created_at), desc(auditLog.id))
          .limit(size);
        if (rows.length === 0) return;
        yield rows.map(({ at: _at, ...row }) => row);
        if (rows.length < size) return;
        const last = rows[rows.length - 1];
        after = { at: last.at, id: last.id };
      }
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
