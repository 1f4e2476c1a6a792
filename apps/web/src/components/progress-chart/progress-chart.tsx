import { Button, Group, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { type ChartedResult, longDate, measureText, progressChartText, progressChartTitle, rateText, SERIES } from '@reformes/domain';
import { IconTable } from '@tabler/icons-react';
import { lazy, Suspense, useId, useState } from 'react';
import { CHART_HEIGHT } from './chart-series.ts';
import { chartPoints } from './progress-chart-data.ts';

const ProgressLineChart = lazy(() => import('./progress-line-chart.tsx'));

/**
 * A result's achieved value over time against its target and reference: a line chart (recharts through
 * @mantine/charts, loaded with the first chart), an image for assistive technologies whose text alternative says
 * every value, and the same figures as a table on demand. Nothing without a measure.
 */
export function ProgressChart({ result }: { result: ChartedResult }) {
  const id = useId();
  const [showTable, setShowTable] = useState(false);
  if (result.suivi_results.length === 0) return null;
  const title = progressChartTitle(result);

  return (
    <Stack component="figure" gap={6} m={0} aria-labelledby={`${id}-title`}>
      <Text component="figcaption" size="sm" fw={600} id={`${id}-title`}>
        {title}
      </Text>
      <VisuallyHidden id={`${id}-desc`}>{progressChartText(result)}</VisuallyHidden>
      <div role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`} style={{ minHeight: CHART_HEIGHT }}>
        {/* The drawing is for the eyes: its words are the image's name and description (and recharts' svg is an image too). */}
        <div aria-hidden>
          <Suspense fallback={<Skeleton h={CHART_HEIGHT} />}>
            <ProgressLineChart points={chartPoints(result)} />
          </Suspense>
        </div>
      </div>
      <Group justify="space-between" gap="xs">
        <Group gap="md" aria-hidden>
          {SERIES.map((series) => (
            <Legend key={series.name} color={series.css} label={series.label} dashed={series.dashed} />
          ))}
        </Group>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconTable size={16} aria-hidden />}
          aria-expanded={showTable}
          aria-controls={`${id}-table`}
          onClick={() => setShowTable((shown) => !shown)}
        >
          {showTable ? 'Masquer les données du graphique' : 'Afficher les données du graphique'}
        </Button>
      </Group>
      <div id={`${id}-table`} hidden={!showTable}>
        {showTable && <ChartTable result={result} title={title} />}
      </div>
    </Stack>
  );
}

function ChartTable({ result, title }: { result: ChartedResult; title: string }) {
  const records = [...result.suivi_results].sort((a, b) => a.date.localeCompare(b.date));
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table withTableBorder striped captionSide="top">
        <Table.Caption>{`${title} (valeur cible ${measureText(result.valeur_cible)}, valeur de référence ${measureText(result.valeurref)})`}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col">Valeur réalisée</Table.Th>
            <Table.Th scope="col">Taux de réalisation</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((record, index) => (
            // Public measures carry no id; the rows are drawn once, in this order.
            <Table.Tr key={`${record.date}-${index}`}>
              <Table.Td>{longDate(record.date)}</Table.Td>
              <Table.Td>{measureText(record.valeur_realise)}</Table.Td>
              <Table.Td>{rateText(record.taux_realisat)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Legend({ color, label, dashed }: { color: string; label: string; dashed?: string }) {
  return (
    <Group gap={6}>
      <svg width={22} height={8} aria-hidden>
        <line x1={0} x2={22} y1={4} y2={4} stroke={color} strokeWidth={dashed ? 2 : 3} strokeDasharray={dashed} />
      </svg>
      <Text size="xs">{label}</Text>
    </Group>
  );
}
