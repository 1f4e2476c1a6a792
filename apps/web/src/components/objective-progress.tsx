import { Group, Progress, Text } from '@mantine/core';
import { exactPercentageText, percentageText } from '@reformes/domain';

interface ObjectiveProgressProps {
  /** Validated results over all results (spec §4), unrounded; nothing is shown when undefined or null. */
  value: number | null | undefined;
  /** The objective, to name the progress bar. */
  label: string;
}

/**
 * An objective's progress: a bar and, as readable text, the unrounded percentage of spec §4
 * ("33,333333333333336 %"). The bar speaks the one-decimal figure (aria-valuetext "33,3 %") rather
 * than Mantine's raw "33.333…%".
 */
export function ObjectiveProgress({ value, label }: ObjectiveProgressProps) {
  if (value === null || value === undefined) return null;
  return (
    <Group gap="sm" wrap="nowrap" data-value={value}>
      <Progress.Root size="lg" style={{ flex: 1, minWidth: 80 }}>
        <Progress.Section
          value={value}
          color={value >= 100 ? 'green' : 'blue'}
          withAria={false}
          role="progressbar"
          aria-label={`Résultats validés : ${label}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={value}
          aria-valuetext={percentageText(value)}
        />
      </Progress.Root>
      <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
        {exactPercentageText(value)}
      </Text>
    </Group>
  );
}
