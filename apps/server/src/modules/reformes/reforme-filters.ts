import type { ReformeFilters } from '@reformes/domain';
import { eq, type SQL } from 'drizzle-orm';
import { reformes } from '../../db/schema/index.ts';
import { matchesFoldedColumn } from '../../http/search.ts';

/** The reform search (spec §3 "Local search filter"): one column of folded texts and ISO dates, trigram-indexed. */
export function reformeSearch(text: string): SQL | undefined {
  return matchesFoldedColumn(reformes.search_text, text);
}

/** A reform list's filters (structure, nature, coverage, type, text), to put after its own conditions in an `and`. */
export function reformeFilters(filters: ReformeFilters, search: (text: string) => SQL | undefined = reformeSearch): Array<SQL | undefined> {
  return [
    filters.structure_id ? eq(reformes.structure_id, filters.structure_id) : undefined,
    filters.nature_id ? eq(reformes.nature_id, filters.nature_id) : undefined,
    filters.couverture_id ? eq(reformes.couverture_id, filters.couverture_id) : undefined,
    filters.typeref ? eq(reformes.typeref, filters.typeref) : undefined,
    filters.search ? search(filters.search) : undefined,
  ];
}
