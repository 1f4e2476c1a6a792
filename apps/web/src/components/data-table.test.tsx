import { Button, Table } from '@mantine/core';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render-app.tsx';
import { DataTable, SelectableRow } from './data-table.tsx';

const COLUMNS = ['Libellé', 'Statut'];

const labelsOf = (rowName: string) =>
  Array.from(screen.getByRole('row', { name: new RegExp(rowName) }).querySelectorAll('td')).map((cell) => cell.dataset.label);

/** A table of sectors with a last actions' column; "Page suivante" shows other rows (a new page, a refresh). */
function Sectors() {
  const [names, setNames] = useState(['Santé']);
  return (
    <>
      <Button onClick={() => setNames(['Éducation', 'Transports'])}>Page suivante</Button>
      <DataTable label="Secteurs" minWidth={600} columns={COLUMNS} withActions isLoading={false} isEmpty={false}>
        {names.map((name) => (
          <Table.Tr key={name}>
            <Table.Td>{name}</Table.Td>
            <Table.Td>Actif</Table.Td>
            <Table.Td>
              <Button>Consulter {name}</Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
    </>
  );
}

/** A selectable table, empty once "Vider" is pressed. */
function SelectableSectors() {
  const [isEmpty, setEmpty] = useState(false);
  return (
    <>
      <Button onClick={() => setEmpty(true)}>Vider</Button>
      <DataTable label="Secteurs" minWidth={600} columns={COLUMNS} selectable isLoading={false} isEmpty={isEmpty}>
        <SelectableRow group="sectors" label="Santé" isSelected={false} onSelect={() => {}}>
          <Table.Td>Santé</Table.Td>
          <Table.Td>Actif</Table.Td>
        </SelectableRow>
      </DataTable>
    </>
  );
}

describe('DataTable on a narrow screen (issue 44, item 3)', () => {
  it("labels every cell with its column's name and marks the actions' cell, for the card layout", async () => {
    renderWithProviders(<Sectors />);
    expect(labelsOf('Santé')).toEqual(['Libellé', 'Statut', 'Actions']);
    const cells = Array.from(screen.getByRole('row', { name: /Santé/ }).querySelectorAll('td'));
    expect(cells.map((cell) => 'actions' in cell.dataset)).toEqual([false, false, true]);

    // Rows shown later are labelled too.
    await userEvent.click(screen.getByRole('button', { name: 'Page suivante' }));
    expect(labelsOf('Éducation')).toEqual(['Libellé', 'Statut', 'Actions']);
    expect(labelsOf('Transports')).toEqual(['Libellé', 'Statut', 'Actions']);
  });

  it("gives the selection's radio no label, and the empty sentence's single cell none", async () => {
    renderWithProviders(<SelectableSectors />);
    expect(labelsOf('Santé')).toEqual([undefined, 'Libellé', 'Statut']);

    await userEvent.click(screen.getByRole('button', { name: 'Vider' }));
    const cells = Array.from(screen.getByRole('table').querySelectorAll<HTMLTableCellElement>('tbody td'));
    expect(cells).toHaveLength(1);
    expect(cells[0]?.dataset.label).toBeUndefined();
  });
});
