import { ActionIcon, Badge, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { REFORME_MESSAGES } from '@reformes/domain';
import { IconPaperclip, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { notifySuccess } from '../../components/notify.tsx';
import { FileUploadModal } from './file-upload-modal.tsx';
import { deleteFile } from './files-api.ts';
import { REFORMES_KEY, type ReformeFileRef } from './reformes-api.ts';
import { ViewFileButton } from './view-file-button.tsx';

interface ReformeFilesFieldProps {
  /** Files already attached to the reform. */
  existing: ReformeFileRef[];
  /** Files uploaded during this visit, attached when the form is saved. */
  pending: ReformeFileRef[];
  onPendingChange: (files: ReformeFileRef[]) => void;
  disabled?: boolean;
}

/** "Documentation": "Ajouter un fichier" opens the upload panel; every file can be seen and removed. */
export function ReformeFilesField({ existing, pending, onPendingChange, disabled }: ReformeFilesFieldProps) {
  const queryClient = useQueryClient();
  const [uploading, setUploading] = useState(false);
  const [removing, setRemoving] = useState<ReformeFileRef>();
  const files = [...existing.map((file) => ({ file, isPending: false })), ...pending.map((file) => ({ file, isPending: true }))];

  const remove = useMutation({
    mutationFn: (file: ReformeFileRef) => deleteFile(file.id),
    onSuccess: (response, file) => {
      notifySuccess(response.message, REFORME_MESSAGES.fileTitle);
      if (pending.some((item) => item.id === file.id)) onPendingChange(pending.filter((item) => item.id !== file.id));
      else void queryClient.invalidateQueries({ queryKey: REFORMES_KEY });
    },
    meta: { errorTitle: REFORME_MESSAGES.fileTitle },
  });

  return (
    <Stack gap="sm">
      {files.length === 0 ? (
        <Text c="dimmed" size="sm">
          Aucun fichier joint
        </Text>
      ) : (
        <Table aria-label="Fichiers joints" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Nom du fichier</Table.Th>
              <Table.Th w={220}>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {files.map(({ file, isPending }) => (
              <Table.Tr key={file.id}>
                <Table.Td>
                  <Group gap="xs">
                    <Text size="sm">{file.name_file}</Text>
                    {isPending && (
                      <Badge variant="light" color="gray" size="sm">
                        joint à l'enregistrement
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" wrap="nowrap">
                    <ViewFileButton file={file} />
                    {!disabled && (
                      <Tooltip label="Retirer">
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Retirer le fichier ${file.name_file}`}
                          onClick={() => setRemoving(file)}
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {!disabled && (
        <Group>
          <Button variant="light" leftSection={<IconPaperclip size={16} aria-hidden />} onClick={() => setUploading(true)}>
            Ajouter un fichier
          </Button>
        </Group>
      )}
      <FileUploadModal opened={uploading} onClose={() => setUploading(false)} onUploaded={(file) => onPendingChange([...pending, file])} />
      <ConfirmDialog
        opened={removing !== undefined}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing, { onSettled: () => setRemoving(undefined) })}
        onCancel={() => setRemoving(undefined)}
      />
    </Stack>
  );
}
