import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { permissionName, REFORME_MESSAGES, WORKFLOW_MESSAGES } from '@reformes/domain';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { Pagination } from '../../components/list-page/pagination.tsx';
import { COLUMNS } from '../reformes/reforme-columns.tsx';
import { reformesByRolePageQuery } from '../reformes/reformes-api.ts';
import { ReformesTable } from '../reformes/reformes-table.tsx';
import { useReformeActions } from '../reformes/use-reforme-actions.tsx';
import { useReformesPage } from '../reformes/use-reformes-page.ts';

const columns = [COLUMNS.libref, COLUMNS.type, COLUMNS.periode, COLUMNS.dateDebut, COLUMNS.dateFin];

/**
 * "A transmettre" / "A valider" / "A publier" (/admin/treatment-reformes): the reforms waiting at the
 * user's stage, with the workflow's buttons (return down, transmit up, publish right).
 */
export function TreatmentPage() {
  const list = useReformesPage((page) => reformesByRolePageQuery(page));
  const actions = useReformeActions('treatment');
  const canAdd = actions.features.includes(permissionName('reformes', 'add'));

  return (
    <Stack>
      <Title order={1}>{WORKFLOW_MESSAGES.treatmentTitle}</Title>
      {canAdd && (
        <Group>
          <Button component={Link} to="/admin/create-reforme" leftSection={<IconPlus size={16} aria-hidden />}>
            Ajouter
          </Button>
        </Group>
      )}
      <Text aria-live="polite">{list.total} élément(s)</Text>
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
