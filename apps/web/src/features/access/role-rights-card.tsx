import { Badge, Button, Group, Paper, ScrollArea, Stack, Table, Text, Title } from '@mantine/core';
import { ACTION_LABELS, ACTIONS, matchesSearchText } from '@reformes/domain';
import { IconCopy, IconPlus } from '@tabler/icons-react';
import { useId, useMemo, useState } from 'react';
import { SearchField } from '../../components/search-field.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { type RoleProfile, type RoleRight, rightLabel } from './access-api.ts';

interface RoleRightsCardProps {
  role: RoleProfile;
  /** `profiles.add`: "Copier vers" and "Ajouter un droit". */
  canAdd: boolean;
  /** `profiles.delete`: "Retirer". */
  canRevoke: boolean;
  onCopy: (role: RoleProfile) => void;
  onGrant: (role: RoleProfile) => void;
  onRevoke: (right: RoleRight) => void;
}

/** Rights by feature, then in the order of the actions (list, add, show...). */
function byFeatureThenAction(a: RoleRight, b: RoleRight): number {
  return (
    a.permission.feature_tag.localeCompare(b.permission.feature_tag, 'fr') ||
    ACTIONS.indexOf(a.permission.action) - ACTIONS.indexOf(b.permission.action)
  );
}

/** One role of "Rôles & permissions" (spec §2.9): its own search box, "Copier vers", "Ajouter un droit", each right with "Retirer". */
export function RoleRightsCard({ role, canAdd, canRevoke, onCopy, onGrant, onRevoke }: RoleRightsCardProps) {
  const titleId = useId();
  const [search, setSearch] = useState('');
  const rights = useMemo(() => [...role.permissions].sort(byFeatureThenAction), [role.permissions]);
  const shown = rights.filter((right) =>
    matchesSearchText([right.permission.feature_tag, ACTION_LABELS[right.permission.action], right.permission.name], search),
  );

  return (
    <Paper component="section" aria-labelledby={titleId} withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Group gap="xs">
            <Title order={2} size="h4" id={titleId}>
              {role.name}
            </Title>
            <Badge variant="light" color="gray">
              {rights.length} droit(s)
            </Badge>
            {!role.is_active && <StatusBadge isActive={false} />}
          </Group>
          {canAdd && (
            <Group gap="xs">
              <Button size="xs" variant="light" leftSection={<IconCopy size={14} aria-hidden />} onClick={() => onCopy(role)}>
                Copier vers
              </Button>
              <Button size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => onGrant(role)}>
                Ajouter un droit
              </Button>
            </Group>
          )}
        </Group>
        <SearchField label="Rechercher un droit" compact clearLabel="Effacer la recherche" value={search} onChange={setSearch} />
        {shown.length === 0 ? (
          <Text c="dimmed" size="sm" ta="center" py="sm">
            {search.trim() ? 'Aucun résultat trouvé' : 'Aucun droit'}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360} type="auto" offsetScrollbars>
            <Table striped highlightOnHover aria-label={`Droits du rôle ${role.name}`}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Fonctionnalité</Table.Th>
                  <Table.Th>Action</Table.Th>
                  {canRevoke && <Table.Th w={110}>Retrait</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shown.map((right) => (
                  <Table.Tr key={right.id}>
                    <Table.Td>
                      <Group gap={6}>
                        {right.permission.feature_tag}
                        {!(right.is_active && right.permission.is_active) && <StatusBadge isActive={false} />}
                      </Group>
                    </Table.Td>
                    <Table.Td>{ACTION_LABELS[right.permission.action] ?? right.permission.action}</Table.Td>
                    {canRevoke && (
                      <Table.Td>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          aria-label={`Retirer ${rightLabel(right.permission)}`}
                          onClick={() => onRevoke(right)}
                        >
                          Retirer
                        </Button>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        )}
      </Stack>
    </Paper>
  );
}
