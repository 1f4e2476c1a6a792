import { Stack, Text, Title } from '@mantine/core';
import { permissionName, REFORME_MESSAGES } from '@reformes/domain';
import { useState } from 'react';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { CreateRowModal } from '../../components/list-page/create-row-modal.tsx';
import { Pagination } from '../../components/list-page/pagination.tsx';
import { SECTOR_FORM } from '../../components/sector-form.ts';
import { COLUMNS } from './reforme-columns.tsx';
import { ReformeFiltersBar } from './reforme-filters.tsx';
import { reformesPageQuery } from './reformes-api.ts';
import { ReformesTable } from './reformes-table.tsx';
import { ReformesToolbar } from './reformes-toolbar.tsx';
import { useReformeActions } from './use-reforme-actions.tsx';
import { useReformesPage } from './use-reformes-page.ts';

const columns = [COLUMNS.libref, COLUMNS.type, COLUMNS.periode, COLUMNS.dateDebut, COLUMNS.dateFin, COLUMNS.etat, COLUMNS.publiee];

/**
 * "Liste des réformes" (/admin/list-reformes): filters, the row actions of the user's role (spec §6), and
 * the "add a sector" modal of spec §2.10 for those who may add a sector.
 */
export function ReformesListPage() {
  const list = useReformesPage(reformesPageQuery);
  const actions = useReformeActions('list');
  const canAdd = actions.features.includes(permissionName('reformes', 'add'));
  const canAddSector = actions.features.includes(permissionName(SECTOR_FORM.feature, 'add'));
  const [isAddingSector, setAddingSector] = useState(false);

  return (
    <Stack>
      <Title order={1}>{REFORME_MESSAGES.listTitle}</Title>
      <ReformesToolbar canAdd={canAdd} onAddSector={canAddSector ? () => setAddingSector(true) : undefined} />
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
          label={REFORME_MESSAGES.listTitle}
          columns={columns}
          rows={list.rows}
          isLoading={list.isLoading}
          actions={actions.renderActions}
        />
      )}
      <Pagination {...list.pagination} />
      {actions.dialogs}
      <CreateRowModal opened={isAddingSector} config={SECTOR_FORM} onClose={() => setAddingSector(false)} />
    </Stack>
  );
}
