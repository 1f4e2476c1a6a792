import { Button, Group, Modal, Text } from '@mantine/core';

export const DELETE_TITLE = 'Suppression';
export const DELETE_QUESTION = 'Voulez vous vraiment retirer cet élément?';

interface ConfirmDialogProps {
  opened: boolean;
  title?: string;
  question?: string;
  /** Shows a spinner on "Oui, continuer" and blocks a second click. */
  loading?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A yes/no question, delete by default (spec §5, §8): "Oui, continuer" / "Annuler". */
export function ConfirmDialog({
  opened,
  title = DELETE_TITLE,
  question = DELETE_QUESTION,
  loading,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onCancel} title={title} size="md" withCloseButton={false} centered>
      <Text>{question}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onCancel} disabled={loading}>
          Annuler
        </Button>
        <Button color="red" onClick={onConfirm} loading={loading}>
          Oui, continuer
        </Button>
      </Group>
    </Modal>
  );
}
