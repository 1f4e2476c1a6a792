import { Paper, Text } from '@mantine/core';

interface StatCardProps {
  label: string;
  value: number;
}

const numberFormat = new Intl.NumberFormat('fr-FR');

export function StatCard({ label, value }: StatCardProps) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="sm" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} mt={4}>
        {numberFormat.format(value)}
      </Text>
    </Paper>
  );
}
