import { List, Paper, Text, Title } from '@mantine/core';
import { useId } from 'react';
import type { Role, WindowNode } from './access-api.ts';

/** The side panel of the roles list: the selected role's menu ("windows"), as a nested list. */
export function RoleWindowsPanel({ role }: { role: Role | undefined }) {
  const titleId = useId();
  return (
    <Paper component="section" aria-labelledby={titleId} withBorder p="md">
      <Title order={2} size="h4" id={titleId} mb="sm">
        {role ? `Menu du rôle ${role.name}` : 'Menu du rôle'}
      </Title>
      {!role ? (
        <Text c="dimmed">Sélectionnez un rôle pour voir son menu.</Text>
      ) : role.windows.length === 0 ? (
        <Text c="dimmed">Ce rôle n'a aucun menu.</Text>
      ) : (
        <WindowTree nodes={role.windows} nested={false} />
      )}
    </Paper>
  );
}

function WindowTree({ nodes, nested = true }: { nodes: WindowNode[]; nested?: boolean }) {
  return (
    <List withPadding={nested} spacing={4} size="sm">
      {nodes.map((node) => (
        <List.Item key={node.id}>
          <Text span size="sm" fw={node.children.length > 0 ? 600 : undefined}>
            {node.name}
          </Text>
          {node.route && (
            <Text span size="xs" c="dimmed">
              {' '}
              {node.route}
            </Text>
          )}
          {node.children.length > 0 && <WindowTree nodes={node.children} />}
        </List.Item>
      ))}
    </List>
  );
}
