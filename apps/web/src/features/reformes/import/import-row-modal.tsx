import { Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IMPORT_COLUMNS, type ImportCells, type ImportIssue, type ImportRow } from '@reformes/domain';
import { useState } from 'react';
import { FormButtons } from '../../../components/form-buttons.tsx';

interface ImportRowModalProps {
  /** The line being fixed; the modal is closed when undefined. */
  row: ImportRow | undefined;
  issues: ImportIssue[] | undefined;
  onClose: () => void;
  onSave: (row: ImportRow) => void;
}

/** "Corriger la ligne N": every column of the line as text, each issue under its column; the server checks again. */
export function ImportRowModal({ row, issues, onClose, onSave }: ImportRowModalProps) {
  return (
    <Modal
      opened={row !== undefined}
      onClose={onClose}
      title={row ? `Corriger la ligne ${row.line}` : ''}
      size="xl"
      closeOnClickOutside
      closeOnEscape
    >
      {row && <RowForm key={row.line} row={row} issues={issues ?? []} onClose={onClose} onSave={onSave} />}
    </Modal>
  );
}

function RowForm({
  row,
  issues,
  onClose,
  onSave,
}: {
  row: ImportRow;
  issues: ImportIssue[];
  onClose: () => void;
  onSave: (row: ImportRow) => void;
}) {
  const [cells, setCells] = useState<ImportCells>(row.cells);
  const lineIssues = issues.filter((issue) => issue.column === '');
  const errorOf = (label: string) =>
    issues
      .filter((issue) => issue.column === label)
      .map((issue) => issue.message)
      .join(' ') || undefined;

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const kept = Object.fromEntries(Object.entries(cells).filter(([, value]) => value?.trim())) as ImportCells;
        onSave({ line: row.line, cells: kept });
      }}
    >
      <Stack>
        {lineIssues.map((issue) => (
          <Text key={issue.message} size="sm" c="red.9">
            {issue.message}
          </Text>
        ))}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {IMPORT_COLUMNS.map((column) => (
            <TextInput
              key={column.key}
              label={column.label}
              value={cells[column.key] ?? ''}
              error={errorOf(column.label)}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setCells((current) => ({ ...current, [column.key]: value }));
              }}
            />
          ))}
        </SimpleGrid>
        <FormButtons onCancel={onClose} submitLabel="Vérifier la ligne" mt={0} />
      </Stack>
    </form>
  );
}
