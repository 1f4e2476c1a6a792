import { Button, Group, Modal, Table } from '@mantine/core';
import type { DetailField } from './list-config.ts';

interface DetailsModalProps<Row> {
  row: Row | undefined;
  title?: string;
  fields: DetailField<Row>[];
  onClose: () => void;
}

/** "Détails des informations": the selected row, read-only (large, static backdrop, spec §9). */
export function DetailsModal<Row>({ row, title = 'Détails des informations', fields, onClose }: DetailsModalProps<Row>) {
  return (
    <Modal opened={row !== undefined} onClose={onClose} title={title} withCloseButton={false}>
      {row !== undefined && (
        <Table variant="vertical" withTableBorder layout="fixed">
          <Table.Tbody>
            {fields.map((field) => (
              <Table.Tr key={field.label}>
                <Table.Th scope="row" w={200}>
                  {field.label}
                </Table.Th>
                <Table.Td>{field.value(row)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Fermer
        </Button>
      </Group>
    </Modal>
  );
}
