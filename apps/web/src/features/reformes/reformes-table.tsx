import { Center, Loader, Paper, Table, Text } from '@mantine/core';
import { MESSAGES } from '@reformes/domain';
import type { ReactNode } from 'react';
import type { ReformeRow } from './reformes-api.ts';

export interface ReformeColumn {
  label: string;
  render: (row: ReformeRow) => ReactNode;
}

interface ReformesTableProps {
  /** Names the table for assistive technologies (the screen's title). */
  label: string;
  columns: ReformeColumn[];
  rows: ReformeRow[];
  isLoading: boolean;
  /** The row's buttons, in a last "Actions" column; no such column when absent. */
  actions?: (row: ReformeRow) => ReactNode;
  minWidth?: number;
}

/** The table of every reform screen: the screen's columns, then the row's actions. */
export function ReformesTable({ label, columns, rows, isLoading, actions, minWidth = 800 }: ReformesTableProps) {
  const span = columns.length + (actions ? 1 : 0);
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table striped highlightOnHover aria-label={label} aria-busy={isLoading}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column.label}>{column.label}</Table.Th>
              ))}
              {actions && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {isLoading && rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={span}>
                  <Center py="md" role="status">
                    <Loader size="sm" aria-label={MESSAGES.loading} />
                  </Center>
                </Table.Td>
              </Table.Tr>
            ) : rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={span}>
                  <Text c="dimmed" ta="center" py="md">
                    Aucun résultat trouvé
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((row) => (
                <Table.Tr key={row.id}>
                  {columns.map((column) => (
                    <Table.Td key={column.label}>{column.render(row)}</Table.Td>
                  ))}
                  {actions && <Table.Td>{actions(row)}</Table.Td>}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
