import './list-page.css';
import { Button, Grid, Group, Stack, Table, Text, Title } from '@mantine/core';
import { type Action, MESSAGES } from '@reformes/domain';
import { IconEdit, IconEye, IconLock, IconLockOpen, IconPlus, IconTrash, IconX } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { resourceKey } from '../../api/list-api.ts';
import { ConfirmDialog } from '../confirm-dialog.tsx';
import { DataTable, SelectableRow } from '../data-table.tsx';
import { notifyWarning } from '../notify.tsx';
import { Pagination } from '../pagination.tsx';
import { SearchField } from '../search-field.tsx';
import { DetailsModal } from './details-modal.tsx';
import { EntityFormModal } from './entity-form-modal.tsx';
import { detailFieldsOf, type ExtraAction, type ListConfig, type ListRow } from './list-config.ts';
import { type ListController, useListController } from './use-list-controller.ts';

type Dialog<Row> = { kind: 'create' } | { kind: 'edit'; row: Row } | { kind: 'details'; row: Row } | { kind: 'delete'; row: Row };

interface ListPageProps<Row extends ListRow> {
  config: ListConfig<Row>;
  /** Buttons after the standard ones, most acting on the selected row. */
  extraActions?: ExtraAction<Row>[];
  /** A panel beside the table about the selected row (the roles list shows the role's menu). */
  aside?: (selected: Row | undefined) => ReactNode;
  /** The screen's own modals (opened by its extra actions). */
  children?: ReactNode;
}

/** The one list screen of spec §2.8/§2.9, configured per entity. */
export function ListPage<Row extends ListRow>({ config, extraActions = [], aside, children }: ListPageProps<Row>) {
  const list = useListController(config);
  const [dialog, setDialog] = useState<Dialog<Row> | null>(null);
  const close = () => setDialog(null);

  /** Spec §4: view, edit, delete and state actions need a selected row. */
  const withSelected = (run: (row: Row) => void) => () => {
    if (list.selected) run(list.selected);
    else notifyWarning(MESSAGES.noSelection);
  };

  const editing = dialog?.kind === 'edit' ? dialog.row : undefined;
  const table = <Rows list={list} />;

  return (
    <Stack>
      <Title order={1}>{config.title}</Title>
      <ActionBar list={list} extraActions={extraActions} withSelected={withSelected} onOpen={setDialog} />
      <ListSearchBar count={list.count} search={list.search} onSearchChange={list.setSearch} onReset={list.resetSearch} />
      {aside ? (
        <Grid>
          <Grid.Col span={{ base: 12, md: 8 }}>
            <Stack>
              {table}
              <Pagination {...list.pagination} />
            </Stack>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 4 }}>{aside(list.selected)}</Grid.Col>
        </Grid>
      ) : (
        <>
          {table}
          <Pagination {...list.pagination} />
        </>
      )}

      <EntityFormModal
        opened={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        title={editing ? config.form.editTitle : config.form.createTitle}
        schema={editing && config.form.editSchema ? config.form.editSchema : config.form.schema}
        fields={config.form.fields}
        row={editing}
        submitLabel={config.form.submitLabel}
        saving={list.save.isPending}
        onSubmit={(values) => list.save.mutate({ id: editing?.id, values }, { onSuccess: close })}
        onClose={close}
      />
      <DetailsModal
        row={dialog?.kind === 'details' ? dialog.row : undefined}
        title={config.details?.title}
        fields={detailFieldsOf(config)}
        onClose={close}
      />
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        loading={list.remove.isPending}
        onConfirm={() => dialog?.kind === 'delete' && list.remove.mutate(dialog.row, { onSettled: close })}
        onCancel={close}
      />
      {children}
    </Stack>
  );
}

interface ListSearchBarProps {
  count: number;
  search: string;
  onSearchChange: (search: string) => void;
  /** Empties the box and goes back to page 1 (spec §5). */
  onReset: () => void;
}

/** "{n} élément(s)", then the search box and its reset button: the same above every list (spec §2.8-§2.10). */
export function ListSearchBar({ count, search, onSearchChange, onReset }: ListSearchBarProps) {
  return (
    <Group justify="space-between" align="flex-end" className="list-search-bar">
      <Text aria-live="polite">{count} élément(s)</Text>
      <SearchField
        value={search}
        onChange={onSearchChange}
        onReset={onReset}
        resetLabel="Réinitialiser la recherche"
        role="search"
        aria-label="Recherche"
      />
    </Group>
  );
}

interface ActionBarProps<Row extends ListRow> {
  list: ListController<Row>;
  extraActions: ExtraAction<Row>[];
  withSelected: (run: (row: Row) => void) => () => void;
  onOpen: (dialog: Dialog<Row>) => void;
}

/** Ajouter, Consulter, Éditer, Supprimer, Activer/Désactiver, Fermer: each shown only with its right (spec §6). */
function ActionBar<Row extends ListRow>({ list, extraActions, withSelected, onOpen }: ActionBarProps<Row>) {
  const { selected } = list;
  const can = (action: Action) => list.can(action) && !list.config.hiddenActions?.includes(action);
  return (
    <Group gap="xs" role="toolbar" aria-label="Actions" className="list-toolbar">
      {can('add') && (
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => onOpen({ kind: 'create' })}>
          Ajouter
        </Button>
      )}
      {can('show') && (
        <Button
          variant="light"
          leftSection={<IconEye size={16} aria-hidden />}
          onClick={withSelected((row) => onOpen({ kind: 'details', row }))}
        >
          Consulter
        </Button>
      )}
      {can('edit') && (
        <Button
          variant="light"
          leftSection={<IconEdit size={16} aria-hidden />}
          onClick={withSelected((row) => onOpen({ kind: 'edit', row }))}
        >
          Éditer
        </Button>
      )}
      {can('delete') && (
        <Button
          variant="light"
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={withSelected((row) => onOpen({ kind: 'delete', row }))}
        >
          Supprimer
        </Button>
      )}
      {can('status') && selected && !selected.is_active && (
        <Button
          variant="light"
          color="green"
          leftSection={<IconLockOpen size={16} aria-hidden />}
          disabled={list.changeState.isPending}
          onClick={() => list.changeState.mutate({ row: selected, isActive: true })}
        >
          Activer
        </Button>
      )}
      {can('status') && selected?.is_active && (
        <Button
          variant="light"
          color="orange"
          leftSection={<IconLock size={16} aria-hidden />}
          disabled={list.changeState.isPending}
          onClick={() => list.changeState.mutate({ row: selected, isActive: false })}
        >
          Désactiver
        </Button>
      )}
      {extraActions
        .filter((action) => list.can(action.action))
        .map((action) => (
          <Button
            key={action.label}
            variant="light"
            leftSection={action.icon}
            onClick={action.needsSelection === false ? () => action.onClick(selected) : withSelected(action.onClick)}
          >
            {action.label}
          </Button>
        ))}
      {selected && (
        <Button variant="default" leftSection={<IconX size={16} aria-hidden />} onClick={list.clearSelection}>
          Fermer
        </Button>
      )}
    </Group>
  );
}

/** The table: a radio per row (arrow keys move it, like any radio group), then the configured columns. */
function Rows<Row extends ListRow>({ list }: { list: ListController<Row> }) {
  const { config, rows, selected } = list;
  return (
    <DataTable
      label={config.title}
      error={list.error}
      errorTitle={config.listErrorTitle ?? config.errorTitle}
      minWidth={600}
      columns={config.columns.map((column) => column.label)}
      selectable
      isLoading={list.isLoading}
      isEmpty={rows.length === 0}
    >
      {rows.map((row, index) => (
        <SelectableRow
          key={row.id}
          group={`${resourceKey(config.routes)[0]}-selection`}
          label={config.rowLabel(row)}
          isSelected={selected?.id === row.id}
          onSelect={() => list.select(row)}
        >
          {config.columns.map((column) => (
            <Table.Td key={column.label}>{column.render(row, list.firstPosition + index)}</Table.Td>
          ))}
        </SelectableRow>
      ))}
    </DataTable>
  );
}
