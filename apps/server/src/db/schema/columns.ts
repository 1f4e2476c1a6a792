import { type AnyPgColumn, boolean, integer, serial, timestamp } from 'drizzle-orm/pg-core';

/** A point in time, with its time zone. */
export const at = () => timestamp({ withTimezone: true });

/** When the row was written. */
export const createdAt = () => at().notNull().defaultNow();

/** Created and last updated (the reference lists, users, reforms...). */
export const timestamps = { created_at: createdAt(), updated_at: createdAt() };

/** `is_active`: rows are deactivated rather than deleted once other rows rely on them. */
export const isActive = () => boolean().notNull().default(true);

/** The id of the row this one belongs to or points at, required; what a delete of that row does to this one. */
export const refersTo = (target: () => AnyPgColumn, onDelete: 'cascade' | 'restrict') =>
  integer().notNull().references(target, { onDelete });

/** `id`: a serial primary key. */
export const id = () => serial().primaryKey();
