import { Badge } from '@mantine/core';

/** Spec §4: an active row reads "Actif", an inactive one "Bloqué". */
export function StatusBadge({ isActive }: { isActive: boolean }) {
  return (
    <Badge color={isActive ? 'green' : 'red'} variant="light" miw="max-content">
      {isActive ? 'Actif' : 'Bloqué'}
    </Badge>
  );
}
