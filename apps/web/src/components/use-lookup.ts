import { useQuery } from '@tanstack/react-query';
import { allRowsQuery } from '../api/list-api.ts';

/** A row of a reference list (`GET natures`, `GET structures`...). */
export interface LookupRow {
  id: number;
  is_active?: boolean;
  [field: string]: unknown;
}

/**
 * A reference list as select options, every row or those `keep` keeps:
 * `useLookup('natures', (row) => String(row.libnature))` gives `[{ value: '3', label: 'Budgétaire' }...]`.
 */
export function useLookup(
  resource: string,
  label: (row: LookupRow) => string,
  keep: (row: LookupRow) => boolean = () => true,
): { value: string; label: string }[] {
  const rows = useQuery(allRowsQuery<LookupRow>(resource));
  return (rows.data ?? []).filter(keep).map((row) => ({ value: String(row.id), label: label(row) }));
}
