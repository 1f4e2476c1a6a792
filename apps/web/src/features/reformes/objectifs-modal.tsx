import { zodResolver } from '@hookform/resolvers/zod';
import { ActionIcon, Button, Group, Loader, Modal, Stack, Table, Text, Tooltip } from '@mantine/core';
import { objectifSchema, REFORME_MESSAGES, textLimitOf } from '@reformes/domain';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { LongTextField } from '../../components/long-text-field.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { createObjectif, deleteObjectif, objectifsOfReformeQuery, updateObjectif, useReloadObjectifs } from './objectifs-api.ts';
import { StateButton, useStateChange } from './objectifs-state.tsx';
import type { ObjectifRow } from './reformes-api.ts';

interface ObjectifsModalProps {
  /** The reform whose objectives are defined; the modal is closed when undefined. */
  reforme: { id: number; libref: string } | undefined;
  onClose: () => void;
}

/**
 * "Définir les objectifs": the reform's objectives with their state (Actif / Bloqué), each editable,
 * removable and, with the right, activated or deactivated; and the form to add one.
 */
export function ObjectifsModal({ reforme, onClose }: ObjectifsModalProps) {
  return (
    <Modal
      opened={reforme !== undefined}
      onClose={onClose}
      title="Définir les objectifs"
    >
      {reforme && <ObjectifsEditor reforme={reforme} onClose={onClose} />}
    </Modal>
  );
}

function ObjectifsEditor({ reforme, onClose }: { reforme: { id: number; libref: string }; onClose: () => void }) {
  const objectifs = useQuery(objectifsOfReformeQuery(reforme.id));
  const reload = useReloadObjectifs();
  const state = useStateChange('objectifs');
  const [editing, setEditing] = useState<ObjectifRow>();
  const [removing, setRemoving] = useState<ObjectifRow>();

  const {
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(objectifSchema),
    mode: 'all',
    defaultValues: { libobjectif: '', reforme_id: reforme.id },
  });

  const save = useMutation({
    mutationFn: (values: { libobjectif: string; reforme_id: number }) =>
      editing ? updateObjectif(editing.id, values) : createObjectif(values),
    onSuccess: (response) => {
      notifySuccess(response.message, REFORME_MESSAGES.objectifsTitle);
      setEditing(undefined);
      reset({ libobjectif: '', reforme_id: reforme.id });
      return reload();
    },
    meta: { errorTitle: REFORME_MESSAGES.objectifsTitle },
  });

  const remove = useMutation({
    mutationFn: (objectif: ObjectifRow) => deleteObjectif(objectif.id),
    onSuccess: (response) => {
      notifySuccess(response.message, REFORME_MESSAGES.objectifsTitle);
      return reload();
    },
    meta: { errorTitle: REFORME_MESSAGES.objectifsTitle },
  });

  const startEditing = (objectif: ObjectifRow) => {
    setEditing(objectif);
    reset({ libobjectif: objectif.libobjectif, reforme_id: reforme.id });
  };

  return (
    <Stack>
      <Text size="sm">
        Réforme : <strong>{reforme.libref}</strong>
      </Text>
      {objectifs.isPending ? (
        <Loader size="sm" aria-label="Chargement..." />
      ) : (objectifs.data ?? []).length === 0 ? (
        <Text c="dimmed" size="sm">
          {REFORME_MESSAGES.noObjectifs}
        </Text>
      ) : (
        <Table withTableBorder striped aria-label="Objectifs de la réforme">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Objectif</Table.Th>
              <Table.Th w={90}>Résultats</Table.Th>
              <Table.Th w={90}>État</Table.Th>
              <Table.Th w={state.can ? 190 : 100}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(objectifs.data ?? []).map((objectif) => (
              <Table.Tr key={objectif.id}>
                <Table.Td>{objectif.libobjectif}</Table.Td>
                <Table.Td>{objectif.results?.length ?? 0}</Table.Td>
                <Table.Td>
                  <StatusBadge isActive={objectif.is_active} />
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Tooltip label="Modifier">
                      <ActionIcon
                        variant="subtle"
                        aria-label={`Modifier l'objectif ${objectif.libobjectif}`}
                        onClick={() => startEditing(objectif)}
                      >
                        <IconEdit size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label="Supprimer">
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Supprimer l'objectif ${objectif.libobjectif}`}
                        onClick={() => setRemoving(objectif)}
                      >
                        <IconTrash size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    {state.can && (
                      <StateButton
                        isActive={objectif.is_active}
                        disabled={state.change.isPending}
                        onClick={() => state.change.mutate({ id: objectif.id, isActive: !objectif.is_active })}
                      />
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))}>
        <Stack>
          <LongTextField
            control={control}
            name="libobjectif"
            maxLength={textLimitOf(objectifSchema.shape.libobjectif)}
            label={editing ? "Libellé de l'objectif (modification)" : "Libellé de l'objectif"}
            withAsterisk
            data-autofocus
            error={errors.libobjectif?.message}
          />
          <Group justify="flex-end">
            {editing && (
              <Button
                variant="default"
                onClick={() => {
                  setEditing(undefined);
                  reset({ libobjectif: '', reforme_id: reforme.id });
                }}
              >
                Annuler la modification
              </Button>
            )}
            <Button variant="default" onClick={onClose}>
              Fermer
            </Button>
            <Button type="submit" loading={save.isPending}>
              {editing ? 'Modifier' : 'Enregistrer'}
            </Button>
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={removing !== undefined}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing, { onSettled: () => setRemoving(undefined) })}
        onCancel={() => setRemoving(undefined)}
      />
    </Stack>
  );
}
