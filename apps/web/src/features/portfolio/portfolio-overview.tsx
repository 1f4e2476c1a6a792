import { Button, Group, Progress, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  dayMonthYear,
  ETAT_OPTIONS,
  MESSAGES,
  NATURES_ROUTES,
  PORTFOLIO_MESSAGES,
  PORTFOLIO_STATUSES,
  type PortfolioFilters,
  type PortfolioRow,
  percentageText,
  portfolioFiltersSchema,
  SEARCH_DEBOUNCE_MS,
  SEARCH_MIN_LENGTH,
  STRUCTURES_ROUTES,
  TYPE_OPTIONS,
} from '@reformes/domain';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { portfolioCountsQuery } from '../../components/portfolio/portfolio-counts.ts';
import { PortfolioStatusBadge } from '../../components/portfolio/status-badge.tsx';
import { StatusCounters } from '../../components/portfolio/status-counters.tsx';
import { SearchField } from '../../components/search-field.tsx';
import { TableBodyState } from '../../components/table-body-state.tsx';
import { type FilterRule, useListState } from '../../components/use-list-state.ts';
import { useLookup } from '../../components/use-lookup.ts';
import { downloadPortfolio, PORTFOLIO_PAGE_SIZE, portfolioFiltersOf, portfolioPageQuery } from './portfolio-api.ts';

const ALL = '';
type FilterKey = Exclude<keyof PortfolioFilters, 'search'>;

/** Each filter of the address read through the domain's rule for it (portfolioFiltersSchema): a bad value is no filter. */
const FILTER_RULES = Object.fromEntries(
  (['structure_id', 'nature_id', 'typeref', 'etat_mor', 'status'] as const).map((key) => [
    key,
    (raw: string) => portfolioFiltersSchema.shape[key].safeParse(raw).success,
  ]),
) as Record<FilterKey, FilterRule>;

/** Filters back to the address's text, to merge a change into them. */
const latestText = (filters: PortfolioFilters) =>
  Object.fromEntries(Object.entries(filters).flatMap(([key, value]) => (value === undefined ? [] : [[key, String(value)]])));

/**
 * The portfolio that opens "Suivi des réformes" (issue 16): every active reform of the user's scope, most
 * urgent first, with its status, progress and last follow-up; counters per status that filter the list.
 * Filters and page live in the address, so the dashboard's counters link straight to a filtered view.
 */
export function PortfolioOverview({ onOpen }: { onOpen: (reformeId: number) => void }) {
  const state = useListState({ filters: FILTER_RULES });
  const filters = portfolioFiltersOf(new URLSearchParams({ ...state.filters, ...(state.search ? { search: state.search } : {}) }));
  const { page, setPage, setFilter, setSearch, clampTo } = state;
  const [typed, setTyped] = useState(filters.search ?? '');
  const [debounced] = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);

  // The filters as last asked for: an export clicked right after a filter, before the page has rendered it again,
  // carries that filter too.
  const latest = useRef(filters);
  useEffect(() => {
    latest.current = filters;
  });
  const update = (key: FilterKey, value: string | undefined) => {
    const text: Record<string, string> = latestText(latest.current);
    if (value) text[key] = value;
    else delete text[key];
    latest.current = portfolioFiltersOf(new URLSearchParams(text));
    setFilter(key, value);
  };

  const search = debounced.length >= SEARCH_MIN_LENGTH ? debounced : undefined;
  useEffect(() => {
    if (search !== filters.search) setSearch(search ?? '');
  }, [search]);

  const { status, ...withoutStatus } = filters;
  const list = useQuery(portfolioPageQuery(filters, page));
  const exporting = useMutation({
    mutationFn: (extension: 'csv' | 'xlsx') => downloadPortfolio(latest.current, extension),
    meta: { errorTitle: PORTFOLIO_MESSAGES.exportTitle },
  });
  const counts = useQuery(portfolioCountsQuery(withoutStatus));
  const all = { value: ALL, label: 'Toutes' };
  const structures = [all, ...useLookup(STRUCTURES_ROUTES, (row) => `${row.designation} (${row.sigl})`)];
  const natures = [all, ...useLookup(NATURES_ROUTES, (row) => String(row.libnature))];

  const select = (key: FilterKey, label: string, data: Array<{ value: string; label: string }>, allLabel = 'Toutes') => (
    <Select
      label={label}
      data={data[0]?.value === ALL ? data : [{ value: ALL, label: allLabel }, ...data]}
      value={filters[key] === undefined ? ALL : String(filters[key])}
      allowDeselect={false}
      searchable={key === 'structure_id'}
      nothingFoundMessage={MESSAGES.nothingFound}
      onChange={(value) => update(key, value ?? undefined)}
    />
  );

  const total = list.data?.total ?? 0;
  const pageCount = Math.ceil(total / PORTFOLIO_PAGE_SIZE);
  useEffect(() => {
    if (list.data) clampTo(pageCount);
  }, [list.data, clampTo, pageCount]);
  return (
    <Stack component="section" aria-label={PORTFOLIO_MESSAGES.overviewLabel}>
      <StatusCounters counts={counts.data} active={status} onToggle={(value) => update('status', status === value ? undefined : value)} />
      <SimpleGrid cols={{ base: 1, sm: 3, lg: 6 }} role="search" aria-label="Filtres du portefeuille">
        <SearchField value={typed} onChange={setTyped} />
        {select('structure_id', 'Structure', structures)}
        {select('nature_id', 'Nature', natures)}
        {select('typeref', 'Type de réforme', TYPE_OPTIONS, 'Tout')}
        {select('etat_mor', 'Etat MO', ETAT_OPTIONS, 'Tous')}
        {select(
          'status',
          PORTFOLIO_MESSAGES.status,
          PORTFOLIO_STATUSES.map((entry) => ({ value: entry.value, label: entry.label })),
          'Tous',
        )}
      </SimpleGrid>
      <Group gap="xs">
        {(['csv', 'xlsx'] as const).map((extension) => (
          <Button
            key={extension}
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
            loading={exporting.isPending && exporting.variables === extension}
            onClick={() => exporting.mutate(extension)}
          >
            {extension === 'csv' ? PORTFOLIO_MESSAGES.exportCsv : PORTFOLIO_MESSAGES.exportXlsx}
          </Button>
        ))}
      </Group>
      {list.error ? (
        <ErrorAlert title={PORTFOLIO_MESSAGES.title} error={list.error} />
      ) : (
        <PortfolioTable rows={list.data?.data} total={total} isLoading={list.isPending} onOpen={onOpen} />
      )}
      <Pagination page={page} total={pageCount} onChange={setPage} label="Pagination du portefeuille" />
    </Stack>
  );
}

interface PortfolioTableProps {
  rows: PortfolioRow[] | undefined;
  total: number;
  isLoading: boolean;
  onOpen: (reformeId: number) => void;
}

function PortfolioTable({ rows = [], total, isLoading, onOpen }: PortfolioTableProps) {
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table striped highlightOnHover aria-busy={isLoading}>
        {rows.length > 0 && <Table.Caption>{`${total} réforme${total > 1 ? 's' : ''}, les plus en retard d'abord`}</Table.Caption>}
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Réforme</Table.Th>
            <Table.Th scope="col">Structure</Table.Th>
            <Table.Th scope="col">Période</Table.Th>
            <Table.Th scope="col">{PORTFOLIO_MESSAGES.status}</Table.Th>
            <Table.Th scope="col">{PORTFOLIO_MESSAGES.progress}</Table.Th>
            <Table.Th scope="col">{PORTFOLIO_MESSAGES.lastSuivi}</Table.Th>
            <Table.Th scope="col">Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <TableBodyState span={7} isLoading={isLoading} isEmpty={isLoading || rows.length === 0} empty={PORTFOLIO_MESSAGES.empty}>
            {rows.map((row) => {
              const percent = row.progress * 100;
              return (
                <Table.Tr key={row.id}>
                  <Table.Td>{row.libref}</Table.Td>
                  <Table.Td>{row.structure ?? ''}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{`${dayMonthYear(row.date_debut)} – ${dayMonthYear(row.date_fin)}`}</Table.Td>
                  <Table.Td>
                    <PortfolioStatusBadge status={row.status} days={row.days_without_suivi} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {/* The name and the value go on the section, which is the progressbar (not on its root). */}
                      <Progress.Root size="md" style={{ flex: 1, minWidth: 60 }}>
                        <Progress.Section
                          value={percent}
                          aria-label={`${PORTFOLIO_MESSAGES.progress} : ${row.libref}`}
                          aria-valuetext={percentageText(percent)}
                        />
                      </Progress.Root>
                      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                        {percentageText(percent)}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {row.last_suivi_date ? dayMonthYear(row.last_suivi_date) : PORTFOLIO_MESSAGES.noSuivi}
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" variant="light" aria-label={`Voir le suivi de ${row.libref}`} onClick={() => onOpen(row.id)}>
                      Voir le suivi
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </TableBodyState>
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
