import { normalizeSearchText } from '@reformes/domain';
import { type AnyColumn, or, type SQL, sql } from 'drizzle-orm';

const ACCENTED = 'àáâãäåçèéêëìíîïñòóôõöùúûüýÿ';
const PLAIN = 'aaaaaaceeeeiiiinooooouuuuyy';

function normalizedColumn(column: AnyColumn | SQL): SQL {
  return sql`translate(lower(${column}::text), ${ACCENTED}, ${PLAIN})`;
}

/** Case- and accent-insensitive "contains" over several columns: `matchesSearch([libref, typeref], 'reforme')`. */
export function matchesSearch(columns: Array<AnyColumn | SQL>, text: string): SQL | undefined {
  const term = normalizeSearchText(text).replace(/[\\%_]/g, (char) => `\\${char}`);
  if (!term) return undefined;
  return or(...columns.map((column) => sql`${normalizedColumn(column)} like ${`%${term}%`}`));
}
