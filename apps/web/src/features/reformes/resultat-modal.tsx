import { zodResolver } from '@hookform/resolvers/zod';
import { Loader, Modal, SimpleGrid, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { REFORME_MESSAGES, type ResultatInput, resultatSchema, textLimitOf } from '@reformes/domain';
import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { FormButtons } from '../../components/form-buttons.tsx';
import { SelectField } from '../../components/select-field.tsx';
import { EditorTable, ReformeLine, StateAndActionCells, useObjectifsMutation, useRemoval, useStateChange } from './objectif-editor.tsx';
import { createResultat, deleteResultat, objectifsOfReformeQuery, type ResultatPayload } from './objectifs-api.ts';
import type { ResultatRow } from './reformes-api.ts';

interface ResultatModalProps {
  /** The reform whose objectives receive the result; the modal is closed when undefined. */
  reforme: { id: number; libref: string } | undefined;
  /** The objective chosen at opening (from /admin/objectifs). */
  objectifId?: number;
  onClose: () => void;
}

/** "Enregistrer un résultat attendu" (spec §5): objective, label, indicator, target and reference values. */
export function ResultatModal({ reforme, objectifId, onClose }: ResultatModalProps) {
  return (
    <Modal opened={reforme !== undefined} onClose={onClose} title="Enregistrer un résultat attendu">
      {reforme && <ResultatEditor reforme={reforme} objectifId={objectifId} onClose={onClose} />}
    </Modal>
  );
}

const blank = (objectifId: string): ResultatInput => ({
  objectif_id: objectifId,
  libresult: '',
  indicateur: '',
  valeur_cible: '',
  valeurref: '',
});

function ResultatEditor({
  reforme,
  objectifId,
  onClose,
}: {
  reforme: { id: number; libref: string };
  objectifId?: number;
  onClose: () => void;
}) {
  const objectifs = useQuery(objectifsOfReformeQuery(reforme.id));
  const state = useStateChange('resultats');
  const removal = useRemoval((result: ResultatRow) => deleteResultat(result.id));

  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<ResultatInput, unknown, ResultatPayload>({
    resolver: zodResolver(resultatSchema) as never,
    mode: 'all',
    defaultValues: blank(objectifId ? String(objectifId) : ''),
  });
  const chosen = useWatch({ control, name: 'objectif_id' });
  const chosenObjectif = objectifs.data?.find((objectif) => String(objectif.id) === String(chosen));

  // The objective stays chosen: its next result is typed straight away.
  const save = useObjectifsMutation(createResultat, (values) => reset(blank(String(values.objectif_id))));

  if (objectifs.isPending) return <Loader size="sm" aria-label="Chargement..." />;
  const options = (objectifs.data ?? []).map((objectif) => ({ value: String(objectif.id), label: objectif.libobjectif }));
  const message = (field: keyof ResultatInput) => errors[field]?.message as string | undefined;

  return (
    <Stack>
      <ReformeLine libref={reforme.libref} />
      {options.length === 0 && (
        <Text c="dimmed" size="sm">
          {REFORME_MESSAGES.noObjectifs} : définissez d'abord un objectif.
        </Text>
      )}
      <form noValidate onSubmit={handleSubmit((values) => save.mutate(values))}>
        <Stack>
          <SelectField
            control={control}
            name="objectif_id"
            label="Objectif"
            withAsterisk
            data={options}
            placeholder="Choisir un objectif"
            error={message('objectif_id')}
          />
          <TextInput
            label="Libellé du résultat"
            withAsterisk
            maxLength={textLimitOf(resultatSchema.shape.libresult)}
            error={message('libresult')}
            {...register('libresult')}
          />
          <TextInput
            label="Indicateur"
            withAsterisk
            maxLength={textLimitOf(resultatSchema.shape.indicateur)}
            error={message('indicateur')}
            {...register('indicateur')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label="Valeur cible"
              withAsterisk
              inputMode="decimal"
              error={message('valeur_cible')}
              {...register('valeur_cible')}
            />
            <TextInput label="Valeur référence" withAsterisk inputMode="decimal" error={message('valeurref')} {...register('valeurref')} />
          </SimpleGrid>
          <FormButtons onCancel={onClose} cancelLabel="Fermer" saving={save.isPending} mt={0} submitLabel="Enregistrer" />
        </Stack>
      </form>
      {chosenObjectif && (
        <Stack gap="xs">
          <Text fw={600} size="sm">
            Résultats attendus de l'objectif « {chosenObjectif.libobjectif} »
          </Text>
          <EditorTable
            label="Résultats attendus de l'objectif"
            empty={REFORME_MESSAGES.noResults}
            isEmpty={(chosenObjectif.results ?? []).length === 0}
            head={
              <>
                <Table.Th>Résultat attendu</Table.Th>
                <Table.Th>Indicateur</Table.Th>
                <Table.Th>Cible</Table.Th>
                <Table.Th>Référence</Table.Th>
                <Table.Th>État</Table.Th>
                <Table.Th w={state.can ? 150 : 60}>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </Table.Th>
              </>
            }
          >
            {(chosenObjectif.results ?? []).map((result) => (
              <Table.Tr key={result.id}>
                <Table.Td>{result.libresult}</Table.Td>
                <Table.Td>{result.indicateur}</Table.Td>
                <Table.Td>{Number(result.valeur_cible).toLocaleString('fr-FR')}</Table.Td>
                <Table.Td>{Number(result.valeurref).toLocaleString('fr-FR')}</Table.Td>
                <StateAndActionCells
                  subject={`le résultat ${result.libresult}`}
                  row={result}
                  state={state}
                  onDelete={() => removal.ask(result)}
                />
              </Table.Tr>
            ))}
          </EditorTable>
        </Stack>
      )}
      {removal.dialog}
    </Stack>
  );
}
