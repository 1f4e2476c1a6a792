import { Button, Table, Text } from '@mantine/core';
import { longDate, measureText, rateText, SUIVI_MESSAGES } from '@reformes/domain';
import type { SuiviRecord } from './suivi-api.ts';

interface SuiviRecordsTableProps {
  /** Names the table for assistive technologies. */
  label: string;
  records: SuiviRecord[];
  /** Spec §6: the "Action" column with "Retirer", only for those who may delete a record. */
  onRemove?: (record: SuiviRecord) => void;
}

/** The follow-up records of one result: rate, value and long French date, oldest first. */
export function SuiviRecordsTable({ label, records, onRemove }: SuiviRecordsTableProps) {
  if (records.length === 0) {
    return (
      <Text c="dimmed" size="sm">
        {SUIVI_MESSAGES.noRecords}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped withTableBorder aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Taux de réalisation</Table.Th>
            <Table.Th>Valeur réalisée</Table.Th>
            <Table.Th>Date</Table.Th>
            {onRemove && <Table.Th>Action</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((record) => (
            <Table.Tr key={record.id}>
              <Table.Td>{rateText(record.taux_realisat)}</Table.Td>
              <Table.Td>{measureText(record.valeur_realise)}</Table.Td>
              <Table.Td>{longDate(record.date)}</Table.Td>
              {onRemove && (
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    color="red"
                    aria-label={`Retirer la donnée du ${longDate(record.date)}`}
                    onClick={() => onRemove(record)}
                  >
                    Retirer
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
