import { Select, SimpleGrid } from '@mantine/core';
import { COVERS_ROUTES, MESSAGES, NATURES_ROUTES, type ReformeFilters, STRUCTURES_ROUTES, TYPE_OPTIONS } from '@reformes/domain';
import { SearchField } from '../../components/search-field.tsx';
import { useLookup } from '../../components/use-lookup.ts';

const ALL = 'all';

interface ReformeFiltersBarProps {
  filters: ReformeFilters;
  onChange: (filters: ReformeFilters) => void;
  /** The text typed in the search box (searched by the server once the typing pauses). */
  search: string;
  onSearchChange: (search: string) => void;
  onReset: () => void;
}

/** Structure, Nature, Couverture ("Toutes") and Type de réforme ("Tout"), plus the text search (spec §2.5, §2.10). */
export function ReformeFiltersBar({ filters, onChange, search, onSearchChange, onReset }: ReformeFiltersBarProps) {
  const all = { value: ALL, label: 'Toutes' };
  const structures = [all, ...useLookup(STRUCTURES_ROUTES, (row) => `${row.designation} (${row.sigl})`)];
  const natures = [all, ...useLookup(NATURES_ROUTES, (row) => String(row.libnature))];
  const covers = [all, ...useLookup(COVERS_ROUTES, (row) => String(row.lib_couvert))];
  const types = [{ value: ALL, label: 'Tout' }, ...TYPE_OPTIONS];

  const select = (key: 'structure_id' | 'nature_id' | 'couverture_id' | 'typeref') => ({
    value: filters[key] === undefined ? ALL : String(filters[key]),
    allowDeselect: false,
    searchable: key === 'structure_id',
    nothingFoundMessage: MESSAGES.nothingFound,
    onChange: (value: string | null) => {
      const next = { ...filters };
      if (!value || value === ALL) delete next[key];
      else if (key === 'typeref') next.typeref = value as ReformeFilters['typeref'];
      else next[key] = Number(value);
      onChange(next);
    },
  });

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} role="search" aria-label="Filtres des réformes">
      <Select label="Structure" data={structures} {...select('structure_id')} />
      <Select label="Nature" data={natures} {...select('nature_id')} />
      <Select label="Couverture" data={covers} {...select('couverture_id')} />
      <Select label="Type de réforme" data={types} {...select('typeref')} />
      <SearchField value={search} onChange={onSearchChange} onReset={onReset} resetLabel="Réinitialiser les filtres" />
    </SimpleGrid>
  );
}
