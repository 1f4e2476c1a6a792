import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { isBeforeLastRecord, SUIVI_MESSAGES, type SuiviInput, suiviSchema } from '@reformes/domain';
import { useMutation } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormButtons } from '../../components/form-buttons.tsx';
import { FrenchDateInput } from '../../components/french-date-input.tsx';
import { notifyError, notifySuccess } from '../../components/notify.tsx';
import { createSuivi, type SuiviResultat, useReloadSuivi } from './suivi-api.ts';

type SuiviOutput = z.output<typeof suiviSchema>;

interface SuiviFormModalProps {
  /** The result that receives the record; the modal is closed when undefined. */
  result: SuiviResultat | undefined;
  onClose: () => void;
}

/** "Ajouter une donnée de suivi": rate and value (>= 0, French decimals), date typed or picked. */
export function SuiviFormModal({ result, onClose }: SuiviFormModalProps) {
  return (
    <Modal opened={result !== undefined} onClose={onClose} title={SUIVI_MESSAGES.addTitle}>
      {result && <SuiviForm key={result.id} result={result} onClose={onClose} />}
    </Modal>
  );
}

function SuiviForm({ result, onClose }: { result: SuiviResultat; onClose: () => void }) {
  const reload = useReloadSuivi();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<SuiviInput, unknown, SuiviOutput>({
    resolver: zodResolver(suiviSchema),
    mode: 'onTouched',
    defaultValues: { result_id: result.id, taux_realisat: '', valeur_realise: '', date: '' },
  });

  const save = useMutation({
    mutationFn: createSuivi,
    onSuccess: async (response) => {
      notifySuccess(response.message, SUIVI_MESSAGES.title);
      await reload();
      onClose();
    },
    meta: { errorTitle: SUIVI_MESSAGES.title },
  });

  const submit = handleSubmit((values) => {
    // Spec §5: checked here so that nothing is sent; the server refuses it as well.
    if (isBeforeLastRecord(values.date, result.suivi_results)) {
      notifyError(SUIVI_MESSAGES.dateBeforeLast, SUIVI_MESSAGES.dateTitle);
      setError('date', { type: 'order', message: SUIVI_MESSAGES.dateBeforeLast });
      return;
    }
    save.mutate(values);
  });

  const message = (field: keyof SuiviInput) => errors[field]?.message as string | undefined;

  return (
    <form noValidate onSubmit={submit}>
      <Stack>
        <Text size="sm">
          Résultat attendu : <strong>{result.libresult}</strong> ({result.indicateur})
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Taux de réalisation (%)"
            withAsterisk
            inputMode="decimal"
            autoComplete="off"
            data-autofocus
            error={message('taux_realisat')}
            {...register('taux_realisat')}
          />
          <TextInput
            label="Valeur réalisée"
            withAsterisk
            inputMode="decimal"
            autoComplete="off"
            error={message('valeur_realise')}
            {...register('valeur_realise')}
          />
        </SimpleGrid>
        <Controller
          name="date"
          control={control}
          render={({ field }) => (
            <FrenchDateInput
              label="Date"
              withAsterisk
              value={String(field.value ?? '')}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              error={message('date')}
            />
          )}
        />
        <FormButtons onCancel={onClose} cancelDisabled submitLabel="Enregistrer" saving={save.isPending} mt={0} />
      </Stack>
    </form>
  );
}
