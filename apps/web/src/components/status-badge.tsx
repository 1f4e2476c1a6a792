import { Badge } from '@mantine/core';

/** Spec §4: an active row reads "Actif", an inactive one "Bloqué". */
export function StatusBadge({ isActive }: { isActive: boolean }) {
  return (
    <Badge color={isActive ? 'green' : 'red'} variant="light" miw="max-content">
      {isActive ? 'Actif' : 'Bloqué'}
    </Badge>
  );
}

/** The lists' "Statut" column: the row's state as a badge. */
export const STATUS_COLUMN = {
  label: 'Statut',
  render: (row: { is_active: boolean }) => <StatusBadge isActive={row.is_active} />,
};
