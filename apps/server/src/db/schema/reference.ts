import { sql } from 'drizzle-orm';
import { type PgColumnBuilderBase, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, isActive, refersTo, timestamps } from './columns.ts';

const requiredText = () => text().notNull();

/**
 * A reference list: a serial id, a label unique regardless of case (so "Santé" and "santé" cannot
 * coexist), the list's own columns, `is_active` and timestamps. `labelledList('covers', 'lib_couvert')`.
 */
function labelledList<
  TName extends string,
  TLabel extends string,
  TExtra extends Record<string, PgColumnBuilderBase> = Record<never, never>,
>(name: TName, label: TLabel, extra: TExtra = {} as TExtra) {
  const labelColumn = { [label]: requiredText() } as Record<TLabel, ReturnType<typeof requiredText>>;
  return pgTable(name, { id: id(), ...labelColumn, ...extra, is_active: isActive(), ...timestamps }, () => [
    uniqueIndex(`${name}_label_unique`).using('btree', sql`lower(${sql.identifier(label)})`),
  ]);
}

export const sectors = labelledList('sectors', 'libsecteur');

export const structures = labelledList('structures', 'designation', {
  sigl: text().notNull(),
  adresse_struct: text().notNull(),
  email: text().notNull(),
  telephone: text().notNull(),
  sector_id: refersTo(() => sectors.id, 'restrict'),
});

export const natures = labelledList('natures', 'libnature', {
  /** Stable code of a seeded nature (NATURES in packages/domain); null for those an administrator adds. */
  code: text().unique(),
});

export const covers = labelledList('covers', 'lib_couvert');

export const entities = labelledList('entities', 'libelle');
