import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Loader, Modal, Stack, Table } from '@mantine/core';
import { objectifSchema, REFORME_MESSAGES, textLimitOf } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { FormButtons } from '../../components/form-buttons.tsx';
import { LongTextField } from '../../components/long-text-field.tsx';
import { EditorTable, ReformeLine, StateAndActionCells, useObjectifsMutation, useRemoval, useStateChange } from './objectif-editor.tsx';
import { createObjectif, deleteObjectif, objectifsOfReformeQuery, updateObjectif } from './objectifs-api.ts';
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
    <Modal opened={reforme !== undefined} onClose={onClose} title="Définir les objectifs">
      {reforme && <ObjectifsEditor reforme={reforme} onClose={onClose} />}
    </Modal>
  );
}

function ObjectifsEditor({ reforme, onClose }: { reforme: { id: number; libref: string }; onClose: () => void }) {
  const objectifs = useQuery(objectifsOfReformeQuery(reforme.id));
  const state = useStateChange('objectifs');
  const removal = useRemoval((objectif: ObjectifRow) => deleteObjectif(objectif.id));
  const [editing, setEditing] = useState<ObjectifRow>();

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

  /** Back to adding (`undefined`), or to changing `objectif`. */
  const edit = (objectif?: ObjectifRow) => {
    setEditing(objectif);
    reset({ libobjectif: objectif?.libobjectif ?? '', reforme_id: reforme.id });
  };
  const save = useObjectifsMutation(
    (values: { libobjectif: string; reforme_id: number }) => (editing ? updateObjectif(editing.id, values) : createObjectif(values)),
    () => edit(undefined),
  );

  return (
    <Stack>
      <ReformeLine libref={reforme.libref} />
      {objectifs.isPending ? (
        <Loader size="sm" aria-label="Chargement..." />
      ) : (
        <EditorTable
          label="Objectifs de la réforme"
          empty={REFORME_MESSAGES.noObjectifs}
          isEmpty={(objectifs.data ?? []).length === 0}
          head={
            <>
              <Table.Th>Objectif</Table.Th>
              <Table.Th w={90}>Résultats</Table.Th>
              <Table.Th w={90}>État</Table.Th>
              <Table.Th w={state.can ? 190 : 100}>Actions</Table.Th>
            </>
          }
        >
          {(objectifs.data ?? []).map((objectif) => (
            <Table.Tr key={objectif.id}>
              <Table.Td>{objectif.libobjectif}</Table.Td>
              <Table.Td>{objectif.results?.length ?? 0}</Table.Td>
              <StateAndActionCells
                subject={`l'objectif ${objectif.libobjectif}`}
                row={objectif}
                state={state}
                onEdit={() => edit(objectif)}
                onDelete={() => removal.ask(objectif)}
              />
            </Table.Tr>
          ))}
        </EditorTable>
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
          <FormButtons
            onCancel={onClose}
            cancelLabel="Fermer"
            saving={save.isPending}
            mt={0}
            submitLabel={editing ? 'Modifier' : 'Enregistrer'}
          >
            {editing && (
              <Button variant="default" onClick={() => edit(undefined)}>
                Annuler la modification
              </Button>
            )}
          </FormButtons>
        </Stack>
      </form>
      {removal.dialog}
    </Stack>
  );
}
