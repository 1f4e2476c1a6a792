import { sql } from 'drizzle-orm';
import { pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { isActive, refersTo, timestamps } from './columns.ts';

/** Labels are unique regardless of case, so "Santé" and "santé" cannot coexist. */
const uniqueLabel = (table: string, column: { name: string }) =>
  uniqueIndex(`${table}_label_unique`).using('btree', sql`lower(${sql.identifier(column.name)})`);

export const sectors = pgTable(
  'sectors',
  { id: serial().primaryKey(), libsecteur: text().notNull(), is_active: isActive(), ...timestamps },
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
    sector_id: refersTo(() => sectors.id, 'restrict'),
    is_active: isActive(),
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
    is_active: isActive(),
    ...timestamps,
  },
  (t) => [uniqueLabel('natures', t.libnature)],
);

export const covers = pgTable(
  'covers',
  { id: serial().primaryKey(), lib_couvert: text().notNull(), is_active: isActive(), ...timestamps },
  (t) => [uniqueLabel('covers', t.lib_couvert)],
);

export const entities = pgTable(
  'entities',
  { id: serial().primaryKey(), libelle: text().notNull(), is_active: isActive(), ...timestamps },
  (t) => [uniqueLabel('entities', t.libelle)],
);
