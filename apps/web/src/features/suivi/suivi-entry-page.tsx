import { Button, Group, Paper, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MESSAGES, measureText, SUIVI_MESSAGES } from '@reformes/domain';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess, notifyWarning } from '../../components/notify.tsx';
import { useCan } from '../../session/use-can.ts';
import { deleteSuivi, type SuiviRecord, suiviReformeQuery, useReloadSuivi } from './suivi-api.ts';
import { SuiviFormModal } from './suivi-form-modal.tsx';
import { SuiviRecordsTable } from './suivi-records-table.tsx';
import { SuiviReformePicker } from './suivi-reforme-picker.tsx';

const searchable = { searchable: true, clearable: true, nothingFoundMessage: MESSAGES.nothingFound } as const;

/**
 * "Données de suivi" (/admin/follow-reforme-create): Réformes (searched on the server, there may be
 * 100 000) -> Objectifs -> Résultat attendu, the last two narrowing from the chosen reform's nested data,
 * then the chosen result's follow-up records.
 */
export function SuiviEntryPage() {
  const canAdd = useCan('suivi-results', 'add');
  const canRemove = useCan('suivi-results', 'delete');
  const reload = useReloadSuivi();

  const [reformeId, setReformeId] = useState<number | null>(null);
  const [objectifId, setObjectifId] = useState<string | null>(null);
  const [resultId, setResultId] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<SuiviRecord>();

  const chosen = useQuery(suiviReformeQuery(reformeId));
  // A choice that disappeared after a reload (deleted meanwhile) counts as no choice.
  const reforme = chosen.data ?? undefined;
  const isGone = chosen.isSuccess && chosen.data === null;
  const objectif = reforme?.objectifs.find((row) => String(row.id) === objectifId);
  const result = objectif?.results.find((row) => String(row.id) === resultId);

  const remove = useMutation({
    mutationFn: (record: SuiviRecord) => deleteSuivi(record.id),
    onSuccess: async (response) => {
      notifySuccess(response.message, SUIVI_MESSAGES.title);
      setRemoving(undefined);
      await reload();
    },
    meta: { errorTitle: SUIVI_MESSAGES.title },
    onError: () => setRemoving(undefined),
  });

  const openForm = () => {
    if (!result) notifyWarning(SUIVI_MESSAGES.resultRequired, SUIVI_MESSAGES.title);
    else setAdding(true);
  };

  return (
    <Stack>
      <Title order={1}>{SUIVI_MESSAGES.entryTitle}</Title>
      <SimpleGrid cols={{ base: 1, md: 3 }}>
        <SuiviReformePicker
          label="Réformes"
          value={reformeId === null || isGone ? null : String(reformeId)}
          selectedLabel={reforme?.libref}
          onChange={(value) => {
            setReformeId(value === null ? null : Number(value));
            setObjectifId(null);
            setResultId(null);
          }}
        />
        <Select
          label="Objectifs"
          placeholder={reforme ? 'Choisir un objectif' : chosen.isFetching ? MESSAGES.loading : "Choisir d'abord une réforme"}
          data={(reforme?.objectifs ?? []).map((row) => ({ value: String(row.id), label: row.libobjectif }))}
          value={objectif ? objectifId : null}
          disabled={!reforme}
          onChange={(value) => {
            setObjectifId(value);
            setResultId(null);
          }}
          {...searchable}
        />
        <Select
          label="Résultat attendu"
          placeholder={objectif ? 'Choisir un résultat' : "Choisir d'abord un objectif"}
          data={(objectif?.results ?? []).map((row) => ({ value: String(row.id), label: row.libresult }))}
          value={result ? resultId : null}
          disabled={!objectif}
          onChange={setResultId}
          {...searchable}
        />
      </SimpleGrid>
      {chosen.error && <ErrorAlert title={SUIVI_MESSAGES.title} error={chosen.error} />}
      {canAdd && (
        <Group>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={openForm}>
            Ajouter
          </Button>
        </Group>
      )}
      {result && (
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {result.libresult}
            </Title>
            <Text size="sm">
              Indicateur : {result.indicateur} · Valeur cible : {measureText(result.valeur_cible)} · Valeur de référence :{' '}
              {measureText(result.valeurref)}
            </Text>
            <SuiviRecordsTable
              label={`Données de suivi du résultat ${result.libresult}`}
              records={result.suivi_results}
              onRemove={canRemove ? setRemoving : undefined}
            />
          </Stack>
        </Paper>
      )}
      <SuiviFormModal result={adding ? result : undefined} onClose={() => setAdding(false)} />
      <ConfirmDialog
        opened={removing !== undefined}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(undefined)}
      />
    </Stack>
  );
}
