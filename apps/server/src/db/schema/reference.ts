import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const timestamps = {
  created_at: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp({ withTimezone: true }).notNull().defaultNow(),
};

/** Labels are unique regardless of case, so "Santé" and "santé" cannot coexist. */
const uniqueLabel = (table: string, column: { name: string }) =>
  uniqueIndex(`${table}_label_unique`).using('btree', sql`lower(${sql.identifier(column.name)})`);

export const sectors = pgTable(
  'sectors',
  { id: serial().primaryKey(), libsecteur: text().notNull(), is_active: boolean().notNull().default(true), ...timestamps },
  (t) => [uniqueLabel('sectors', t.libsecteur)],
);

export const structures = pgTable(
  'structures',
  {
    id: serial().primaryKey(),
    designation: text().notNull(),
    sigl: text().notNull(),
    adresse_struct: text().notNull(),
    email: text().notNull(),
    telephone: text().notNull(),
    sector_id: integer()
      .notNull()
      .references(() => sectors.id, { onDelete: 'restrict' }),
    is_active: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueLabel('structures', t.designation)],
);

export const natures = pgTable(
  'natures',
  {
    id: serial().primaryKey(),
    libnature: text().notNull(),
    /** Stable code of a seeded nature (NATURES in packages/domain); null for those an administrator adds. */
    code: text().unique(),
    is_active: boolean().notNull().default(true),
    ...timestamps,
  },
  (t) => [uniqueLabel('natures', t.libnature)],
);

export const covers = pgTable(
  'covers',
  { id: serial().primaryKey(), lib_couvert: text().notNull(), is_active: boolean().notNull().default(true), ...timestamps },
  (t) => [uniqueLabel('covers', t.lib_couvert)],
);

export const entities = pgTable(
  'entities',
  { id: serial().primaryKey(), libelle: text().notNull(), is_active: boolean().notNull().default(true), ...timestamps },
  (t) => [uniqueLabel('entities', t.libelle)],
);

export { timestamps };
