import { useQuery } from '@tanstack/react-query';
import { allRowsQuery, type ListSource } from '../api/list-api.ts';

/** A row of a reference list (`GET natures`, `GET structures`...). */
export interface LookupRow {
  id: number;
  is_active?: boolean;
}

/**
 * A reference list as select options, every row or those `keep` keeps:
 * `useLookup(NATURES_ROUTES, (row) => row.libnature)` gives `[{ value: '3', label: 'Budgétaire' }...]`.
 */
export function useLookup<Row extends LookupRow>(
  source: ListSource<Row>,
  label: (row: Row) => string,
  keep: (row: Row) => boolean = () => true,
): { value: string; label: string }[] {
  const rows = useQuery(allRowsQuery(source));
  return (rows.data ?? []).filter(keep).map((row) => ({ value: String(row.id), label: label(row) }));
}
