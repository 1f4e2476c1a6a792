import { Stack, Title } from '@mantine/core';
import { permissionName, REFORME_MESSAGES, WORKFLOW_MESSAGES } from '@reformes/domain';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { ListSearchBar } from '../../components/list-page/list-page.tsx';
import { Pagination } from '../../components/list-page/pagination.tsx';
import { COLUMNS } from './reforme-columns.tsx';
import { reformesByRolePageQuery } from './reformes-api.ts';
import { ReformesTable } from './reformes-table.tsx';
import { ReformesToolbar } from './reformes-toolbar.tsx';
import { useReformeActions } from './use-reforme-actions.tsx';
import { useReformesPage } from './use-reformes-page.ts';

const columns = [COLUMNS.libref, COLUMNS.type, COLUMNS.periode, COLUMNS.dateDebut, COLUMNS.dateFin];

/**
 * "A transmettre" / "A valider" / "A publier" (/admin/treatment-reformes): the reforms waiting at the
 * user's stage, searched by the server, with the workflow's buttons (return down, transmit up, publish right).
 * Its detail modal reads results "En attente d'atteinte" / "atteint" (spec §4).
 */
export function TreatmentPage() {
  const list = useReformesPage(reformesByRolePageQuery);
  const actions = useReformeActions('treatment');
  const canAdd = actions.features.includes(permissionName('reformes', 'add'));

  return (
    <Stack>
      <Title order={1}>{WORKFLOW_MESSAGES.treatmentTitle}</Title>
      <ReformesToolbar canAdd={canAdd} withAdvancedSearch={false} />
      <ListSearchBar count={list.total} search={list.search} onSearchChange={list.setSearch} onReset={list.reset} />
      {list.error ? (
        <ErrorAlert title={REFORME_MESSAGES.errorTitle} error={list.error} />
      ) : (
        <ReformesTable
          label={WORKFLOW_MESSAGES.treatmentTitle}
          columns={columns}
          rows={list.rows}
          isLoading={list.isLoading}
          actions={actions.renderActions}
        />
      )}
      <Pagination {...list.pagination} />
      {actions.dialogs}
    </Stack>
  );
}
