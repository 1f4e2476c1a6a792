import { Table } from '@mantine/core';
import { REFORME_MESSAGES } from '@reformes/domain';
import type { ReactNode } from 'react';
import { DataTable } from '../../components/data-table.tsx';
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
  /** A failed load, shown instead of the table under "Gestion des réformes". */
  error?: unknown;
  /** The row's buttons, in a last "Actions" column; no such column when absent. */
  actions?: (row: ReformeRow) => ReactNode;
  minWidth?: number;
}

/** The table of every reform screen: the screen's columns, then the row's actions. */
export function ReformesTable({ label, columns, rows, isLoading, error, actions, minWidth = 800 }: ReformesTableProps) {
  return (
    <DataTable
      label={label}
      error={error}
      errorTitle={REFORME_MESSAGES.errorTitle}
      minWidth={minWidth}
      columns={columns.map((column) => column.label)}
      withActions={actions !== undefined}
      isLoading={isLoading}
      isEmpty={rows.length === 0}
    >
      {rows.map((row) => (
        <Table.Tr key={row.id}>
          {columns.map((column) => (
            <Table.Td key={column.label}>{column.render(row)}</Table.Td>
          ))}
          {actions && <Table.Td>{actions(row)}</Table.Td>}
        </Table.Tr>
      ))}
    </DataTable>
  );
}
