import type { AuditResult } from '@reformes/domain';
import { type SQL, sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { SEARCH_ACCENTED, SEARCH_PLAIN } from '../search-alphabet.ts';
import { createdAt } from './columns.ts';

/**
 * The security audit log: who did what, to what, with which result, when and from where. Append-only; no
 * foreign key, so an entry outlives the account or the role it names (the email and label are copied in).
 * Never a password, token, hash or code (see `recordAudit`).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    created_at: createdAt(),
    actor_id: integer(),
    /** The account's email at the time, or the email as typed for a failed sign-in of an unknown email. */
    actor_email: text(),
    action: text().notNull(),
    target_type: text(),
    target_id: integer(),
    target_label: text(),
    result: text().$type<AuditResult>().notNull(),
    ip: text(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** Folded (lower case, no accents) texts of the free-text search. */
    search_text: text().generatedAlwaysAs(
      (): SQL =>
        sql`translate(lower(coalesce(${auditLog.actor_email}, '') || ' ' || coalesce(${auditLog.target_label}, '') || ' ' || coalesce(${auditLog.ip}, '') || ' ' || ${auditLog.action}), ${sql.raw(`'${SEARCH_ACCENTED}'`)}, ${sql.raw(`'${SEARCH_PLAIN}'`)})`,
    ),
  },
  (t) => [
    check('audit_log_result_check', sql`${t.result} in ('success', 'failure')`),
    // Read backwards for the screen's order (newest first: created_at desc, id desc).
    index('audit_log_created_idx').on(t.created_at, t.id),
    index('audit_log_action_idx').on(t.action, t.created_at, t.id),
    index('audit_log_actor_idx').on(t.actor_id, t.created_at, t.id),
    index('audit_log_actor_email_trgm_idx').using('gin', sql`lower(${t.actor_email}) gin_trgm_ops`),
    index('audit_log_search_trgm_idx').using('gin', t.search_text.op('gin_trgm_ops')),
  ],
);
