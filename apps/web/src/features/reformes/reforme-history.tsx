import { Table, Text } from '@mantine/core';
import { HISTORY_EVENT_LABELS, STAGE_LABELS, WORKFLOW_MESSAGES } from '@reformes/domain';
import dayjs from 'dayjs';
import type { HistoryRow } from './reformes-api.ts';

const stage = (value: number | null) => (value ? (STAGE_LABELS[value] ?? String(value)) : '—');

/** "Historique": every transition of the reform — who, when, from which stage to which, and the instruction. */
export function ReformeHistory({ history }: { history: HistoryRow[] }) {
  if (history.length === 0) return <Text c="dimmed">{WORKFLOW_MESSAGES.historyEmpty}</Text>;
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table withTableBorder striped aria-label="Historique de la réforme">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th>Action</Table.Th>
            <Table.Th>Par</Table.Th>
            <Table.Th>De</Table.Th>
            <Table.Th>Vers</Table.Th>
            <Table.Th>{WORKFLOW_MESSAGES.instructionLabel}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {history.map((row, index) => (
            <Table.Tr key={row.id ?? index}>
              <Table.Td>{dayjs(row.created_at).format('DD/MM/YYYY HH:mm')}</Table.Td>
              <Table.Td>{HISTORY_EVENT_LABELS[row.event] ?? row.event}</Table.Td>
              <Table.Td>{row.user ?? '—'}</Table.Td>
              <Table.Td>{stage(row.from_stage)}</Table.Td>
              <Table.Td>{stage(row.to_stage)}</Table.Td>
              <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{row.instruction || '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
