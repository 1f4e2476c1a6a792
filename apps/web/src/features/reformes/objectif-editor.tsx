import { ActionIcon, Button, Group, Table, Text, Tooltip } from '@mantine/core';
import { MESSAGES, REFORME_MESSAGES } from '@reformes/domain';
import { IconEdit, IconLock, IconLockOpen, IconTrash } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { notifyRunning, notifySuccess } from '../../components/notify.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { useCan } from '../../session/use-can.ts';
import { setActive, useReloadObjectifs } from './objectifs-api.ts';

/** The pieces "Définir les objectifs" and "Enregistrer un résultat attendu" share. */

type StateResource = 'objectifs' | 'resultats';

/** A change of objectives or results: its toast under "Objectifs", then what shows them reloads. */
export function useObjectifsMutation<Values, Answer extends { message: string }>(
  mutationFn: (values: Values) => Promise<Answer>,
  onDone?: (values: Values) => void,
) {
  const reload = useReloadObjectifs();
  return useMutation({
    mutationFn,
    onSuccess: (response, values) => {
      notifySuccess(response.message, REFORME_MESSAGES.objectifsTitle);
      onDone?.(values);
      return reload();
    },
    meta: { errorTitle: REFORME_MESSAGES.objectifsTitle },
  });
}

/**
 * Activer/Désactiver of an objective or an expected result (spec §4), for holders of the `status`
 * right only: `can` says whether to offer it, `mutate({ id, isActive })` runs it under "Opération en cours".
 */
export function useStateChange(resource: StateResource) {
  const can = useCan(resource, 'status');
  const change = useObjectifsMutation(async ({ id, isActive }: { id: number; isActive: boolean }) => {
    const done = notifyRunning(MESSAGES.operationRunning);
    try {
      return await setActive(resource, id, isActive);
    } finally {
      done();
    }
  });
  return { can, change };
}

/** A removal asked for (`ask(row)`) and confirmed in `dialog`, the confirmation dialog to render. */
export function useRemoval<Row>(remove: (row: Row) => Promise<{ message: string }>) {
  const [removing, setRemoving] = useState<Row>();
  const mutation = useObjectifsMutation(remove);
  const dialog = (
    <ConfirmDialog
      opened={removing !== undefined}
      loading={mutation.isPending}
      onConfirm={() => removing && mutation.mutate(removing, { onSettled: () => setRemoving(undefined) })}
      onCancel={() => setRemoving(undefined)}
    />
  );
  return { ask: setRemoving, dialog };
}

interface StateButtonProps {
  isActive: boolean;
  disabled?: boolean;
  onClick: () => void;
}

/** "Désactiver" for an active row, "Activer" for a deactivated one: the row's state says which. */
export function StateButton({ isActive, disabled, onClick }: StateButtonProps) {
  return (
    <Button
      size="compact-xs"
      variant="light"
      color={isActive ? 'orange' : 'green'}
      leftSection={isActive ? <IconLock size={14} aria-hidden /> : <IconLockOpen size={14} aria-hidden />}
      disabled={disabled}
      onClick={onClick}
    >
      {isActive ? 'Désactiver' : 'Activer'}
    </Button>
  );
}

interface RowActionsProps {
  /** How the buttons name the row: "l'objectif Réduire les délais". */
  subject: string;
  row: { id: number; is_active: boolean };
  state: ReturnType<typeof useStateChange>;
  onEdit?: () => void;
  onDelete: () => void;
}

/** The row's last two cells: its state (Actif / Bloqué), then Modifier (when offered), Supprimer and, with the right, Activer/Désactiver. */
export function StateAndActionCells({ subject, row, state, onEdit, onDelete }: RowActionsProps) {
  return (
    <>
      <Table.Td>
        <StatusBadge isActive={row.is_active} />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          {onEdit && (
            <Tooltip label="Modifier">
              <ActionIcon variant="subtle" aria-label={`Modifier ${subject}`} onClick={onEdit}>
                <IconEdit size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          )}
          <Tooltip label="Supprimer">
            <ActionIcon variant="subtle" color="red" aria-label={`Supprimer ${subject}`} onClick={onDelete}>
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
          {state.can && (
            <StateButton
              isActive={row.is_active}
              disabled={state.change.isPending}
              onClick={() => state.change.mutate({ id: row.id, isActive: !row.is_active })}
            />
          )}
        </Group>
      </Table.Td>
    </>
  );
}

/** "Réforme : <libellé>", above the editor. */
export function ReformeLine({ libref }: { libref: string }) {
  return (
    <Text size="sm">
      Réforme : <strong>{libref}</strong>
    </Text>
  );
}

interface EditorTableProps {
  label: string;
  /** What replaces the table when there are no rows. */
  empty: ReactNode;
  isEmpty: boolean;
  /** The header cells. */
  head: ReactNode;
  children: ReactNode;
}

/** The editor's bordered table, or its sentence when there is nothing to list. */
export function EditorTable({ label, empty, isEmpty, head, children }: EditorTableProps) {
  if (isEmpty) {
    return (
      <Text c="dimmed" size="sm">
        {empty}
      </Text>
    );
  }
  return (
    <Table withTableBorder striped aria-label={label}>
      <Table.Thead>
        <Table.Tr>{head}</Table.Tr>
      </Table.Thead>
      <Table.Tbody>{children}</Table.Tbody>
    </Table>
  );
}
