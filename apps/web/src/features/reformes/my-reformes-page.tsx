import { Stack, Title } from '@mantine/core';
import { permissionName, REFORME_MESSAGES } from '@reformes/domain';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { dayMonthYear } from '../../components/french-format.ts';
import { ListSearchBar } from '../../components/list-page/list-page.tsx';
import { Pagination } from '../../components/list-page/pagination.tsx';
import { COLUMNS } from './reforme-columns.tsx';
import { myReformesPageQuery } from './reformes-api.ts';
import { ReformesTable } from './reformes-table.tsx';
import { ReformesToolbar } from './reformes-toolbar.tsx';
import { useReformeActions } from './use-reforme-actions.tsx';
import { useReformesPage } from './use-reformes-page.ts';

// Spec §9: my records show day-month-year dates, with the time of registration.
const columns = [
  COLUMNS.libref,
  COLUMNS.periode,
  { label: 'Date début', render: (row) => dayMonthYear(row.date_debut) },
  { label: 'Date fin', render: (row) => dayMonthYear(row.date_fin) },
  COLUMNS.etat,
  COLUMNS.statut,
  COLUMNS.dateEnreg,
] satisfies Parameters<typeof ReformesTable>[0]['columns'];

/** "Liste de mes enregistrements" (/admin/mylist-reformes): the reforms the user created, searched by the server. */
export function MyReformesPage() {
  const list = useReformesPage(myReformesPageQuery);
  const actions = useReformeActions('myList');
  const canAdd = actions.features.includes(permissionName('reformes', 'add'));

  return (
    <Stack>
      <Title order={1}>{REFORME_MESSAGES.myListTitle}</Title>
      <ReformesToolbar canAdd={canAdd} />
      <ListSearchBar count={list.total} search={list.search} onSearchChange={list.setSearch} onReset={list.reset} />
      {list.error ? (
        <ErrorAlert title={REFORME_MESSAGES.errorTitle} error={list.error} />
      ) : (
        <ReformesTable
          label={REFORME_MESSAGES.myListTitle}
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
