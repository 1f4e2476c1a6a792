import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, type PgColumnBuilderBase, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id, isActive, refersTo, timestamps } from './columns.ts';
import { structures } from './reference.ts';

export const users = pgTable(
  'users',
  {
    id: id(),
    lastname: text().notNull(),
    firstname: text().notNull(),
    address: text().notNull().default(''),
    email: text().notNull(),
    phone: text().notNull().default(''),
    /** Null only for an account created by the directory, « en attente » until an admin gives it a structure (issue 42). */
    structure_id: integer().references(() => structures.id, { onDelete: 'restrict' }),
    /** Null for an account created by the directory that never chose a password (issue 42). */
    password_hash: text(),
    /** Set for admin-created or admin-reset passwords: the next sign-in must choose a new one. */
    must_change_password: boolean().notNull().default(false),
    is_active: isActive(),
    is_signer: boolean().notNull().default(false),
    /**
     * Set by the trigger `users_password_changed` (migration 0005) whenever `password_hash` changes, which also
     * voids the user's outstanding reset links: a temporary password expires 72 hours after this moment.
     */
    password_changed_at: createdAt(),
    /** TOTP (issue 18), encrypted (`two-factor-secret.ts`): the active secret, and one being enrolled. */
    totp_secret: text(),
    totp_pending_secret: text(),
    totp_enabled_at: at(),
    /** The last 30-second step a code was accepted for: a code is never accepted twice. */
    totp_last_step: bigint({ mode: 'number' }),
    ...timestamps,
  },
  (t) => [uniqueIndex('users_email_unique').using('btree', sql`lower(${t.email})`), index('users_structure_idx').on(t.structure_id)],
);

export const userSettings = pgTable('user_settings', {
  id: id(),
  user_id: integer()
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  signature: text(),
  is_active: isActive(),
  ...timestamps,
});

/**
 * A secret a user holds (a token or a code), stored hashed and deleted with the user: a serial id, the user,
 * the given columns and when it was issued.
 */
const userSecret = <TColumns extends Record<string, PgColumnBuilderBase>>(columns: TColumns) => ({
  id: id(),
  user_id: refersTo(() => users.id, 'cascade'),
  ...columns,
  created_at: createdAt(),
});

export const refreshTokens = pgTable(
  'refresh_tokens',
  userSecret({
    token_hash: text().notNull().unique(),
    /** Every token rotated from one sign-in shares a family; reusing a rotated token revokes the family. */
    family_id: uuid().notNull(),
    expires_at: at().notNull(),
    revoked_at: at(),
    rotated_at: at(),
  }),
  (t) => [index('refresh_tokens_user_idx').on(t.user_id), index('refresh_tokens_family_idx').on(t.family_id)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  userSecret({ token_hash: text().notNull().unique(), expires_at: at().notNull(), used_at: at() }),
);

/** The ten single-use recovery codes of a user with two-factor sign-in, hashed (issue 18). */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  userSecret({ code_hash: text().notNull(), used_at: at() }),
  (t) => [index('two_factor_recovery_codes_user_idx').on(t.user_id)],
);

/**
 * What the guard checks on each request (issue 33, migration 0014): a counter per user moved by triggers, in the
 * writing transaction, on any change to the account, its roles, their rights or its sessions; an instance reuses the
 * session it loaded while the counter stands (http/guard.ts).
 */
export const authVersions = pgTable('auth_versions', {
  user_id: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  version: bigint({ mode: 'number' }).notNull().default(0),
});
