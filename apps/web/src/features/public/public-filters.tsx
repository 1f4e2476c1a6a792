import { Select, SimpleGrid } from '@mantine/core';
import { type ReformeFilters, TYPE_OPTIONS } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { SearchField } from '../../components/search-field.tsx';
import { publicFiltersQuery } from './public-api.ts';
import type { FilterKey } from './use-public-list.ts';

const ALL = 'all';

interface PublicFiltersProps {
  filters: ReformeFilters;
  onFilter: (key: FilterKey, value: string | undefined) => void;
  search: string;
  onSearch: (search: string) => void;
  onReset: () => void;
}

/** Structure, Nature, Couverture ("Toutes"), Type de réforme ("Tout") and the text search (spec §2.5). */
export function PublicFilters({ filters, onFilter, search, onSearch, onReset }: PublicFiltersProps) {
  const options = useQuery(publicFiltersQuery()).data;
  const structures = (options?.structures ?? []).map((row) => ({ value: String(row.id), label: `${row.designation} (${row.sigl})` }));
  const natures = (options?.natures ?? []).map((row) => ({ value: String(row.id), label: row.libnature }));
  const covers = (options?.covers ?? []).map((row) => ({ value: String(row.id), label: row.lib_couvert }));

  const select = (key: FilterKey) => ({
    value: filters[key] === undefined ? ALL : String(filters[key]),
    allowDeselect: false,
    onChange: (value: string | null) => onFilter(key, value && value !== ALL ? value : undefined),
  });

  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} role="search" aria-label="Filtres des réformes publiées">
      <Select
        label="Structure"
        data={[{ value: ALL, label: 'Toutes' }, ...structures]}
        searchable
        nothingFoundMessage="Aucun résultat trouvé"
        {...select('structure_id')}
      />
      <Select label="Nature" data={[{ value: ALL, label: 'Toutes' }, ...natures]} {...select('nature_id')} />
      <Select label="Couverture" data={[{ value: ALL, label: 'Toutes' }, ...covers]} {...select('couverture_id')} />
      <Select label="Type de réforme" data={[{ value: ALL, label: 'Tout' }, ...TYPE_OPTIONS]} {...select('typeref')} />
      <SearchField
        type="search"
        placeholder="Libellé, objectif, structure..."
        value={search}
        onChange={onSearch}
        onReset={onReset}
        resetLabel="Réinitialiser les filtres"
      />
    </SimpleGrid>
  );
}
