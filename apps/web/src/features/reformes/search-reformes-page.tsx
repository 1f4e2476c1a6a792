import { Stack, Text, Title } from '@mantine/core';
import { REFORME_MESSAGES } from '@reformes/domain';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Pagination } from '../../components/list-page/pagination.tsx';
import { COLUMNS } from './reforme-columns.tsx';
import { ReformeFiltersBar } from './reforme-filters.tsx';
import { reformesPageQuery } from './reformes-api.ts';
import { ReformesTable } from './reformes-table.tsx';
import { useReformeActions } from './use-reforme-actions.tsx';
import { useReformesPage } from './use-reformes-page.ts';

const columns = [
  COLUMNS.libref,
  COLUMNS.type,
  COLUMNS.objectifGlobal,
  COLUMNS.population,
  COLUMNS.structuresImpliquees,
  COLUMNS.periodeExecution,
  COLUMNS.etatMo,
  COLUMNS.montantPrevu,
  COLUMNS.pdf,
];

/** The reform search screen (/admin/search-reformes): the server filters, searches and pages. */
export function SearchReformesPage() {
  const list = useReformesPage(reformesPageQuery);
  const actions = useReformeActions('search');

  return (
    <Stack>
      <Title order={1}>{REFORME_MESSAGES.searchTitle}</Title>
      <ReformeFiltersBar
        filters={list.filters}
        onChange={list.setFilters}
        search={list.search}
        onSearchChange={list.setSearch}
        onReset={list.reset}
      />
      <Text aria-live="polite">{list.total} élément(s)</Text>
      {list.error ? (
        <ErrorAlert title={REFORME_MESSAGES.errorTitle} error={list.error} />
      ) : (
        <ReformesTable
          label={REFORME_MESSAGES.searchTitle}
          columns={columns}
          rows={list.rows}
          isLoading={list.isLoading}
          actions={actions.renderActions}
          minWidth={1100}
        />
      )}
      <Pagination {...list.pagination} />
      {actions.dialogs}
    </Stack>
  );
}
