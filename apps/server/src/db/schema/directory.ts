import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt } from './columns.ts';
import { users } from './users.ts';

/**
 * Issue 42: an account's directory identity, the pair (issuer, `sub`). Once linked, only this pair leads to the
 * account: the provider's email never does again. One identity per account, one account per identity.
 */
export const directoryLinks = pgTable(
  'directory_links',
  {
    user_id: integer()
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text().notNull(),
    subject: text().notNull(),
    linked_at: createdAt(),
  },
  (t) => [uniqueIndex('directory_links_identity_unique').on(t.issuer, t.subject)],
);

/**
 * A dance under way (issue 42): found by the hash of its `state`, which the browser carries in its cookie and the
 * provider gives back; claimed once (deleted), refused after 10 minutes. In the database so that the callback may
 * land on another instance.
 */
export const directoryDances = pgTable('directory_dances', {
  state_hash: text().primaryKey(),
  /** 'sign_in', or 'link' (from « Mon compte », for `user_id`). */
  purpose: text().notNull(),
  user_id: integer().references(() => users.id, { onDelete: 'cascade' }),
  nonce: text().notNull(),
  code_verifier: text(),
  created_at: createdAt(),
});

/**
 * A session opened by the directory (issue 42): its refresh-token family, the provider's `sid` and the ID token, so
 * that « Déconnexion » ends the provider's session too (`id_token_hint`) and a back-channel logout finds the sessions
 * it ends.
 */
export const directorySessions = pgTable(
  'directory_sessions',
  {
    family_id: uuid().primaryKey(),
    user_id: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issuer: text().notNull(),
    subject: text().notNull(),
    sid: text(),
    id_token: text().notNull(),
    /** The provider's `acr` was one of OIDC_ACR_VALUES: it stands for the second factor a role demands. */
    second_factor: boolean().notNull().default(false),
    created_at: createdAt(),
  },
  (t) => [index('directory_sessions_sid_idx').on(t.issuer, t.sid), index('directory_sessions_subject_idx').on(t.issuer, t.subject)],
);

/** Back-channel logout tokens already used (their `jti`, hashed), kept until they expire: a replay is refused. */
export const directoryLogoutTokens = pgTable('directory_logout_tokens', {
  jti_hash: text().primaryKey(),
  expires_at: at().notNull(),
});
