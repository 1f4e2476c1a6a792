import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, Stack, Text } from '@mantine/core';
import { requiredText, TEXT_LIMITS, WORKFLOW_MESSAGES } from '@reformes/domain';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormButtons } from '../../components/form-buttons.tsx';
import { LongTextField } from '../../components/long-text-field.tsx';

const returnSchema = z.object({
  instruction: requiredText(WORKFLOW_MESSAGES.instructionRequired, TEXT_LIMITS.longText),
});

interface ReturnModalProps {
  /** The reform sent back; the modal is closed when undefined. */
  reforme: { libref: string } | undefined;
  saving: boolean;
  onSubmit: (instruction: string) => void;
  onClose: () => void;
}

/** "Retourner pour correction": the instruction is required (spec §5); the receiving stage sees it as a banner. */
export function ReturnModal({ reforme, saving, onSubmit, onClose }: ReturnModalProps) {
  return (
    <Modal opened={reforme !== undefined} onClose={onClose} title={WORKFLOW_MESSAGES.returnAction}>
      {reforme && <ReturnForm libref={reforme.libref} saving={saving} onSubmit={onSubmit} onClose={onClose} />}
    </Modal>
  );
}

function ReturnForm({ libref, saving, onSubmit, onClose }: Omit<ReturnModalProps, 'reforme'> & { libref: string }) {
  const {
    control,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(returnSchema), mode: 'all', defaultValues: { instruction: '' } });
  return (
    <form noValidate onSubmit={handleSubmit((values) => onSubmit(values.instruction.trim()))}>
      <Stack>
        <Text size="sm">
          Réforme : <strong>{libref}</strong>
        </Text>
        <LongTextField
          control={control}
          name="instruction"
          label={WORKFLOW_MESSAGES.instructionLabel}
          description="Ce qu'il faut corriger, visible par l'étape qui reçoit la réforme"
          withAsterisk
          rows={3}
          data-autofocus
          error={errors.instruction?.message}
        />
      </Stack>
      <FormButtons onCancel={onClose} submitLabel="Retourner" saving={saving} submitProps={{ color: 'orange' }} />
    </form>
  );
}
