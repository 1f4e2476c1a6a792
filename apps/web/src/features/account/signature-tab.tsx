import { Button, Center, FileInput, Group, Image, Loader, Stack, Text } from '@mantine/core';
import { ACCOUNT_MESSAGES, MESSAGES, TITLES } from '@reformes/domain';
import { IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { type CurrentUser, storeUser } from '../../session/session.ts';
import { signatureImageQuery, uploadSignature } from './account-api.ts';

/** The server accepts PNG and JPEG only (architecture §4); the picker offers nothing else. */
const IMAGE_TYPES = ['image/png', 'image/jpeg'];
const PREVIEW_SIZE = 200;

/** "Signature" (signers only): the stored image in a 200x200 preview, and its replacement. */
export function SignatureTab({ user }: { user: CurrentUser }) {
  const setting = user.user_setting;
  const image = useQuery(signatureImageQuery(setting?.signature));
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string>();

  const upload = useMutation({
    mutationFn: (chosen: File) => uploadSignature(chosen, setting?.id),
    onSuccess: ({ message, data }) => {
      storeUser({ ...user, user_setting: { id: data.id, signature: data.signature } });
      setFile(null);
      notifySuccess(message, TITLES.account);
    },
    // The server says what is wrong with the file (type, size...): clearer than a generic failure.
    meta: { errorTitle: TITLES.account },
  });

  const choose = (chosen: File | null) => {
    const isImage = !chosen || IMAGE_TYPES.includes(chosen.type);
    setFileError(isImage ? undefined : ACCOUNT_MESSAGES.signatureImagesOnly);
    setFile(isImage ? chosen : null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };

  return (
    <form noValidate onSubmit={submit}>
      <Stack maw={480}>
        <SignaturePreview isLoading={image.isLoading} src={image.data} />
        {image.isError && <ErrorAlert title={ACCOUNT_MESSAGES.fileLoadTitle} error={image.error} />}
        <FileInput
          label="Charger la signature numérisée"
          description="Image PNG ou JPEG"
          placeholder="Choisir une image"
          accept={IMAGE_TYPES.join(',')}
          clearable
          clearButtonProps={{ 'aria-label': 'Retirer le fichier choisi' }}
          leftSection={<IconUpload size={16} aria-hidden />}
          value={file}
          onChange={choose}
          error={fileError}
        />
        <Group>
          <Button type="submit" disabled={!file || upload.isPending} loading={upload.isPending}>
            Charger ma signature
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SignaturePreview({ isLoading, src }: { isLoading: boolean; src: string | undefined }) {
  if (src) {
    return (
      <Image
        src={src}
        alt="Ma signature"
        w={PREVIEW_SIZE}
        h={PREVIEW_SIZE}
        fit="contain"
        bd="1px solid var(--mantine-color-default-border)"
      />
    );
  }
  return (
    <Center w={PREVIEW_SIZE} h={PREVIEW_SIZE} bd="1px dashed var(--mantine-color-default-border)" bg="var(--mantine-color-default-hover)">
      {isLoading ? (
        <Loader size="sm" aria-label={MESSAGES.loading} />
      ) : (
        <Text size="sm" c="dimmed" ta="center" px="sm">
          {ACCOUNT_MESSAGES.noSignature}
        </Text>
      )}
    </Center>
  );
}
