import { Group, Progress, Text } from '@mantine/core';
import { exactPercentageText, percentageText } from '@reformes/domain';

interface ObjectiveProgressProps {
  /** Validated results over all results (spec §4), unrounded; nothing is shown when undefined or null. */
  value: number | null | undefined;
  /** The objective, to name the progress bar. */
  label: string;
}

/**
 * An objective's progress: a bar and "33,3 %", the unrounded value kept in the title and data-value.
 * The bar speaks the readable figure (aria-valuetext) rather than Mantine's raw "33.333…%".
 */
export function ObjectiveProgress({ value, label }: ObjectiveProgressProps) {
  if (value === null || value === undefined) return null;
  const text = percentageText(value);
  return (
    <Group gap="sm" wrap="nowrap" title={`${exactPercentageText(value)} des résultats validés`} data-value={value}>
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
          aria-valuetext={text}
        />
      </Progress.Root>
      <Text fw={600} size="sm" style={{ whiteSpace: 'nowrap' }}>
        {text}
      </Text>
    </Group>
  );
}
