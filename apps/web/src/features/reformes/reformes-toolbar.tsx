import { Button, Group } from '@mantine/core';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';

interface ReformesToolbarProps {
  canAdd: boolean;
  /** The treatment list leads to no search screen: its reforms are the ones waiting at the user's stage. */
  withAdvancedSearch?: boolean;
}

/** The buttons above the reform lists: "Ajouter" (for those who may add) and the search screen. */
export function ReformesToolbar({ canAdd, withAdvancedSearch = true }: ReformesToolbarProps) {
  if (!canAdd && !withAdvancedSearch) return null;
  return (
    <Group gap="xs">
      {canAdd && (
        <Button component={Link} to="/admin/create-reforme" leftSection={<IconPlus size={16} aria-hidden />}>
          Ajouter
        </Button>
      )}
      {withAdvancedSearch && (
        <Button component={Link} to="/admin/search-reformes" variant="light" leftSection={<IconSearch size={16} aria-hidden />}>
          Recherche avancée
        </Button>
      )}
    </Group>
  );
}
