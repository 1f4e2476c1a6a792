import { Button, Group } from '@mantine/core';
import { IconBuildingCommunity, IconFileImport, IconPlus, IconSearch } from '@tabler/icons-react';
import { Link } from 'react-router';

interface ReformesToolbarProps {
  canAdd: boolean;
  /** The treatment list leads to no search screen: its reforms are the ones waiting at the user's stage. */
  withAdvancedSearch?: boolean;
  /** "Ajouter un secteur" (spec §2.10, "Liste des réformes"), for those who may add a sector. */
  onAddSector?: () => void;
  /** "Importer" (issue 17), for the holders of the right "reformes-import.add". */
  canImport?: boolean;
}

/** The buttons above the reform lists: "Ajouter" (for those who may add), "Ajouter un secteur" and the search screen. */
export function ReformesToolbar({ canAdd, withAdvancedSearch = true, onAddSector, canImport = false }: ReformesToolbarProps) {
  if (!canAdd && !withAdvancedSearch && !onAddSector && !canImport) return null;
  return (
    <Group gap="xs">
      {canAdd && (
        <Button component={Link} to="/admin/create-reforme" leftSection={<IconPlus size={16} aria-hidden />}>
          Ajouter
        </Button>
      )}
      {canImport && (
        <Button component={Link} to="/admin/import-reformes" variant="light" leftSection={<IconFileImport size={16} aria-hidden />}>
          Importer
        </Button>
      )}
      {onAddSector && (
        <Button variant="light" leftSection={<IconBuildingCommunity size={16} aria-hidden />} onClick={onAddSector}>
          Ajouter un secteur
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
