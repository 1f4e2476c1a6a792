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
  SEARCH_DEBOUNCE_MS,
  SEARCH_MIN_LENGTH,
  STRUCTURES_ROUTES,
  TYPE_OPTIONS,
} from '@reformes/domain';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { portfolioCountsQuery } from '../../components/portfolio/portfolio-counts.ts';
import { PortfolioStatusBadge } from '../../components/portfolio/status-badge.tsx';
import { StatusCounters } from '../../components/portfolio/status-counters.tsx';
import { SearchField } from '../../components/search-field.tsx';
import { TableBodyState } from '../../components/table-body-state.tsx';
import { useLookup } from '../../components/use-lookup.ts';
import { downloadPortfolio, PORTFOLIO_PAGE_SIZE, portfolioFiltersOf, portfolioPageQuery } from './portfolio-api.ts';

const ALL = '';
type FilterKey = Exclude<keyof PortfolioFilters, 'search'>;

/**
 * The portfolio that opens "Suivi des réformes" (issue 16): every active reform of the user's scope, most
 * urgent first, with its status, progress and last follow-up; counters per status that filter the list.
 * Filters and page live in the address, so the dashboard's counters link straight to a filtered view.
 */
export function PortfolioOverview({ onOpen }: { onOpen: (reformeId: number) => void }) {
  const [params, setParams] = useSearchParams();
  const filters = portfolioFiltersOf(params);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [typed, setTyped] = useState(filters.search ?? '');
  const [debounced] = useDebouncedValue(typed.trim(), SEARCH_DEBOUNCE_MS);

  // The filters as last asked for: an export clicked right after a filter, before the page has rendered it again,
  // carries that filter too.
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const update = (changes: Partial<Record<keyof PortfolioFilters | 'page', string | undefined>>) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value === undefined || value === '') next.delete(key);
          else next.set(key, value);
        }
        // A new filter starts again from the first page.
        if (!('page' in changes)) next.delete('page');
        latest.current = next;
        return next;
      },
      { replace: true },
    );

  const search = debounced.length >= SEARCH_MIN_LENGTH ? debounced : undefined;
  useEffect(() => {
    if (search !== filters.search) update({ search });
  }, [search]);

  const { status, ...withoutStatus } = filters;
  const list = useQuery(portfolioPageQuery(filters, page));
  const exporting = useMutation({
    mutationFn: (extension: 'csv' | 'xlsx') => downloadPortfolio(portfolioFiltersOf(latest.current), extension),
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
      onChange={(value) => update({ [key]: value ?? undefined })}
    />
  );

  const total = list.data?.total ?? 0;
  return (
    <Stack component="section" aria-label={PORTFOLIO_MESSAGES.overviewLabel}>
      <StatusCounters counts={counts.data} active={status} onToggle={(value) => update({ status: status === value ? undefined : value })} />
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
      <Pagination
        page={page}
        total={Math.ceil(total / PORTFOLIO_PAGE_SIZE)}
        onChange={(next) => update({ page: String(next) })}
        label="Pagination du portefeuille"
      />
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
