import { Group, Paper, Stack, Text, Title } from '@mantine/core';

interface BreakdownCardProps {
  title: string;
  rows: { label: string; total: number }[];
}

/** A small table-like block: one label and its count per line. */
export function BreakdownCard({ title, rows }: BreakdownCardProps) {
  return (
    <Paper withBorder radius="md" p="md">
      <Title order={2} size="h4" mb="sm">
        {title}
      </Title>
      <Stack gap={6} component="dl" m={0}>
        {rows.map((row) => (
          <Group key={row.label} justify="space-between" wrap="nowrap">
            <Text component="dt" size="sm">
              {row.label}
            </Text>
            <Text component="dd" size="sm" fw={600} m={0}>
              {row.total}
            </Text>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}
