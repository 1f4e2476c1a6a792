import { Stack, Text, Title } from '@mantine/core';
import { canImportReformes } from '@reformes/domain';
import { useState } from 'react';
import { CreateRowModal } from '../../components/list-page/create-row-modal.tsx';
import { ListSearchBar } from '../../components/list-page/list-page.tsx';
import { Pagination } from '../../components/pagination.tsx';
import { SECTOR_FORM } from '../../components/sector-form.ts';
import { useCan } from '../../session/use-can.ts';
import type { ReformeScreen } from './reforme-actions.ts';
import { ReformeFiltersBar } from './reforme-filters.tsx';
import type { reformesPageQuery } from './reformes-api.ts';
import { type ReformeColumn, ReformesTable } from './reformes-table.tsx';
import { ReformesToolbar } from './reformes-toolbar.tsx';
import { useReformeActions } from './use-reforme-actions.tsx';
import { useReformesPage } from './use-reformes-page.ts';

/** What makes one reform list screen differ from another; the view does the rest. */
export interface ReformesListConfig {
  title: string;
  /** Which row actions the screen offers (spec §6). */
  screen: ReformeScreen;
  /** The server's page of reforms for this screen (all, mine, waiting at my stage). */
  pageQuery: typeof reformesPageQuery;
  columns: ReformeColumn[];
  /** 'filters': the filter bar of spec §5 (nature, structure, state...); 'search': the search field only. */
  searchBy: 'filters' | 'search';
  /** The buttons above the list; none when absent. */
  toolbar?: { advancedSearch: boolean; addSector?: boolean; import?: boolean };
  minWidth?: number;
}

/**
 * Every reform list screen: a title, the toolbar, the filters or the search field, the count, the table with
 * the row actions of the user's role, the pagination, and the row dialogs. The server filters, searches and
 * pages, so the screen stays fast with 100 000 reforms.
 */
export function ReformesListView({ config }: { config: ReformesListConfig }) {
  const list = useReformesPage(config.pageQuery);
  const actions = useReformeActions(config.screen);
  const canAdd = useCan('reformes', 'add');
  const canAddSector = useCan(SECTOR_FORM.feature, 'add') && config.toolbar?.addSector === true;
  const [isAddingSector, setAddingSector] = useState(false);

  return (
    <Stack>
      <Title order={1}>{config.title}</Title>
      {config.toolbar && (
        <ReformesToolbar
          canAdd={canAdd}
          withAdvancedSearch={config.toolbar.advancedSearch}
          onAddSector={canAddSector ? () => setAddingSector(true) : undefined}
          canImport={config.toolbar.import === true && canImportReformes(actions.features)}
        />
      )}
      {config.searchBy === 'filters' ? (
        <>
          <ReformeFiltersBar
            filters={list.filters}
            onChange={list.setFilters}
            search={list.search}
            onSearchChange={list.setSearch}
            onReset={list.reset}
          />
          <Text aria-live="polite">{list.total} élément(s)</Text>
        </>
      ) : (
        <ListSearchBar count={list.total} search={list.search} onSearchChange={list.setSearch} onReset={list.reset} />
      )}
      <ReformesTable
        label={config.title}
        columns={config.columns}
        rows={list.rows}
        isLoading={list.isLoading}
        error={list.error}
        actions={actions.renderActions}
        minWidth={config.minWidth}
      />
      <Pagination {...list.pagination} />
      {actions.dialogs}
      {canAddSector && <CreateRowModal opened={isAddingSector} config={SECTOR_FORM} onClose={() => setAddingSector(false)} />}
    </Stack>
  );
}
