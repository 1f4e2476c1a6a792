import './data-table.css';
import { Paper, Radio, Table, VisuallyHidden } from '@mantine/core';
import { type ReactNode, useLayoutEffect, useRef } from 'react';
import { ErrorAlert } from './error-alert.tsx';
import { TableBodyState } from './table-body-state.tsx';

interface DataTableProps {
  /** Names the table for assistive technologies (the screen's title). */
  label: string;
  /** A failed load: its alert, titled `errorTitle` (the screen's title by default), replaces the table. */
  error?: unknown;
  errorTitle?: string;
  minWidth: number;
  /** The header's labels, in order. */
  columns: readonly string[];
  /** A first column of radios, its header read by screen readers only ("Sélection"). */
  selectable?: boolean;
  /** A last "Actions" column. */
  withActions?: boolean;
  highlightOnHover?: boolean;
  isLoading: boolean;
  /** Announces a refresh too (aria-busy); `isLoading` by default. */
  busy?: boolean;
  isEmpty: boolean;
  /** What an empty table says; MESSAGES.nothingFound by default. */
  empty?: ReactNode;
  /** The rows. */
  children: ReactNode;
}

/** The label of each cell of a row, in order: none for the selection's radio. */
type CellLabels = readonly (string | null)[];

/**
 * Gives each body cell its column's label (`data-label`) and marks the actions' cell (`data-actions`): on a narrow
 * screen data-table.css shows a row as a card, each cell preceded by its label (`td::before`), the header hidden.
 * A row of another length (the spinner's or the empty sentence's single cell) keeps none.
 */
function labelCells(table: HTMLTableElement | null, labels: CellLabels, withActions: boolean): void {
  for (const row of Array.from(table?.tBodies[0]?.rows ?? [])) {
    const cells = Array.from(row.cells);
    if (cells.length !== labels.length) continue;
    cells.forEach((cell, index) => {
      const label = labels[index];
      if (label) cell.dataset.label = label;
      else delete cell.dataset.label;
      if (withActions && index === cells.length - 1) cell.dataset.actions = '';
    });
  }
}

/**
 * A bordered, scrolling, striped data table whose body is a TableBodyState (spinner, empty line or rows), or its load's error.
 * Below 600 px each row is a card instead (data-table.css): its cells one under the other, each with its column's label,
 * the actions' buttons at least 44 px, no sideways scrolling.
 */
export function DataTable({
  label,
  error,
  errorTitle = label,
  minWidth,
  columns,
  selectable = false,
  withActions = false,
  highlightOnHover = true,
  isLoading,
  busy = isLoading,
  isEmpty,
  empty,
  children,
}: DataTableProps) {
  const tableRef = useRef<HTMLTableElement>(null);
  const labels: CellLabels = [...(selectable ? [null] : []), ...columns, ...(withActions ? ['Actions'] : [])];
  // After every render: the rows are the children, so a new page, a refresh or a new row re-renders the table.
  useLayoutEffect(() => labelCells(tableRef.current, labels, withActions));
  if (error) return <ErrorAlert title={errorTitle} error={error} />;
  const span = labels.length;
  return (
    <Paper withBorder className="data-table">
      {/* A table wider than its place scrolls sideways: its viewport takes the focus, so the keyboard can scroll it too. */}
      <Table.ScrollContainer
        minWidth={minWidth}
        classNames={{ scrollContainerInner: 'data-table-inner' }}
        scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}
      >
        <Table ref={tableRef} striped highlightOnHover={highlightOnHover} aria-label={label} aria-busy={busy}>
          <Table.Thead>
            <Table.Tr>
              {selectable && (
                <Table.Th w={48}>
                  <VisuallyHidden>Sélection</VisuallyHidden>
                </Table.Th>
              )}
              {columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
              {withActions && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <TableBodyState span={span} isLoading={isLoading} isEmpty={isEmpty} empty={empty}>
              {children}
            </TableBodyState>
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

interface SelectableRowProps {
  /** The radio group's name: one per table. */
  group: string;
  /** How the row is named to assistive technologies (its radio's label). */
  label: string;
  isSelected: boolean;
  onSelect: () => void;
  children: ReactNode;
}

/** A row of a `selectable` DataTable: a click anywhere, or its radio (arrow keys move it), selects it. */
export function SelectableRow({ group, label, isSelected, onSelect, children }: SelectableRowProps) {
  return (
    <Table.Tr onClick={onSelect} bg={isSelected ? 'var(--mantine-primary-color-light)' : undefined} style={{ cursor: 'pointer' }}>
      <Table.Td>
        <Radio name={group} aria-label={label} checked={isSelected} onChange={onSelect} />
      </Table.Td>
      {children}
    </Table.Tr>
  );
}
