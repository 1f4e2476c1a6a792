import { zodResolver } from '@hookform/resolvers/zod';
import { FileInput, Modal, Stack, TextInput } from '@mantine/core';
import { fileNameField, REFORME_MESSAGES, textLimitOf } from '@reformes/domain';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormButtons } from '../../components/form-buttons.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { uploadFile } from './files-api.ts';
import type { ReformeFileRef } from './reformes-api.ts';

/** A PDF by its type or, when the browser gives none, by its name; the server checks the content. */
export function looksLikePdf(file: File): boolean {
  return file.type === 'application/pdf' || (file.type === '' && /\.pdf$/i.test(file.name));
}

const uploadSchema = z.object({
  name_file: fileNameField,
  file: z
    .instanceof(File, { error: REFORME_MESSAGES.file })
    .nullable()
    .refine((file) => file !== null, { error: REFORME_MESSAGES.file })
    .refine((file) => file === null || looksLikePdf(file), { error: REFORME_MESSAGES.pdfOnly }),
});
type UploadValues = z.input<typeof uploadSchema>;

interface FileUploadModalProps {
  opened: boolean;
  onClose: () => void;
  onUploaded: (file: ReformeFileRef) => void;
}

/** "Chargement de fichier": a name and a PDF (spec §5); the panel stays open for the next file. */
export function FileUploadModal({ opened, onClose, onUploaded }: FileUploadModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={REFORME_MESSAGES.fileTitle}>
      <UploadForm onUploaded={onUploaded} onClose={onClose} />
    </Modal>
  );
}

function UploadForm({ onUploaded, onClose }: Omit<FileUploadModalProps, 'opened'>) {
  const {
    register,
    control,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<UploadValues>({
    resolver: zodResolver(uploadSchema),
    mode: 'all',
    defaultValues: { name_file: '', file: null },
  });

  const upload = useMutation({
    mutationFn: (values: UploadValues) => uploadFile(values.name_file.trim(), values.file as File),
    onSuccess: (response) => {
      notifySuccess(response.message || REFORME_MESSAGES.fileUploaded, REFORME_MESSAGES.fileTitle);
      onUploaded(response.data);
      reset({ name_file: '', file: null });
    },
    meta: { errorTitle: REFORME_MESSAGES.fileTitle },
  });

  return (
    <form
      noValidate
      onSubmit={(event) => {
        // The panel sits inside the reform form in React's tree: its submit must not save the reform.
        event.stopPropagation();
        void handleSubmit((values) => upload.mutate(values))(event);
      }}
    >
      <Stack>
        <TextInput
          label="Nom du fichier"
          withAsterisk
          data-autofocus
          maxLength={textLimitOf(fileNameField)}
          error={errors.name_file?.message}
          {...register('name_file')}
        />
        <Controller
          name="file"
          control={control}
          render={({ field }) => (
            <FileInput
              label="Fichier (PDF)"
              placeholder="Choisir un fichier PDF"
              withAsterisk
              accept="application/pdf,.pdf"
              clearable
              leftSection={<IconFileTypePdf size={16} aria-hidden />}
              value={field.value ?? null}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
              error={errors.file?.message}
            />
          )}
        />
      </Stack>
      <FormButtons onCancel={onClose} cancelLabel="Fermer" submitLabel="Charger" saving={upload.isPending} />
    </form>
  );
}
