import { normalizeSearchText } from '@reformes/domain';
import { type AnyColumn, or, type SQL, sql } from 'drizzle-orm';
import { SEARCH_ACCENTED, SEARCH_PLAIN } from '../db/search-alphabet.ts';

function normalizedColumn(column: AnyColumn | SQL): SQL {
  return sql`translate(lower(${column}::text), ${SEARCH_ACCENTED}, ${SEARCH_PLAIN})`;
}

function likeTerm(text: string): string | undefined {
  const term = normalizeSearchText(text).replace(/[\\%_]/g, (char) => `\\${char}`);
  return term ? `%${term}%` : undefined;
}

/** "Contains" on a column that already holds folded text (lower-case, no accents), like reformes.search_text. */
export function matchesFoldedColumn(column: AnyColumn, text: string): SQL | undefined {
  const term = likeTerm(text);
  return term ? sql`${column} like ${term}` : undefined;
}

/** Case- and accent-insensitive "contains" over several columns: `matchesSearch([libref, typeref], 'reforme')`. */
export function matchesSearch(columns: Array<AnyColumn | SQL>, text: string): SQL | undefined {
  const term = likeTerm(text);
  if (!term) return undefined;
  return or(...columns.map((column) => sql`${normalizedColumn(column)} like ${term}`));
}
