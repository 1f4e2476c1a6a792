import { Paper, Text, Title } from '@mantine/core';
import { useId } from 'react';

export interface BarChartRow {
  label: string;
  total: number;
  /** A Mantine colour variable, `var(--mantine-color-blue-6)` by default. */
  color?: string;
}

interface BarChartProps {
  title: string;
  rows: BarChartRow[];
}

const LABEL_WIDTH = 150;
const BAR_SPACE = 210;
const VALUE_WIDTH = 50;
const ROW_HEIGHT = 34;
const BAR_HEIGHT = 20;

const numberFormat = new Intl.NumberFormat('fr-FR');

/** "En cours : 20, Planifiée : 5": what the chart says, for those who do not see it. */
export function chartText(rows: BarChartRow[]): string {
  return rows.map((row) => `${row.label} : ${numberFormat.format(row.total)}`).join(', ');
}

/**
 * A horizontal bar chart in plain SVG: one labelled bar per row with its figure written next to it.
 * Screen readers read the title and every figure (role="img" with a text alternative).
 */
export function BarChart({ title, rows }: BarChartProps) {
  const id = useId();
  const max = Math.max(1, ...rows.map((row) => row.total));
  const height = Math.max(1, rows.length) * ROW_HEIGHT;
  const width = LABEL_WIDTH + BAR_SPACE + VALUE_WIDTH;
  return (
    <Paper withBorder radius="md" p="md" component="figure" m={0}>
      <Title order={2} size="h4" mb="sm" id={`${id}-title`}>
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          Aucune réforme
        </Text>
      ) : (
        <svg
          role="img"
          aria-labelledby={`${id}-title ${id}-desc`}
          viewBox={`0 0 ${width} ${height}`}
          width="100%"
          style={{ maxWidth: width * 1.6, display: 'block' }}
        >
          <title>{title}</title>
          <desc id={`${id}-desc`}>{chartText(rows)}</desc>
          {rows.map((row, index) => {
            const y = index * ROW_HEIGHT;
            const barWidth = row.total === 0 ? 0 : Math.max(2, (row.total / max) * BAR_SPACE);
            return (
              <g key={row.label}>
                <text
                  x={LABEL_WIDTH - 8}
                  y={y + ROW_HEIGHT / 2}
                  textAnchor="end"
                  dominantBaseline="central"
                  fontSize={13}
                  fill="currentColor"
                >
                  {row.label}
                </text>
                <rect
                  x={LABEL_WIDTH}
                  y={y + (ROW_HEIGHT - BAR_HEIGHT) / 2}
                  width={BAR_SPACE}
                  height={BAR_HEIGHT}
                  rx={3}
                  fill="var(--mantine-color-gray-1)"
                />
                <rect
                  x={LABEL_WIDTH}
                  y={y + (ROW_HEIGHT - BAR_HEIGHT) / 2}
                  width={barWidth}
                  height={BAR_HEIGHT}
                  rx={3}
                  fill={row.color ?? 'var(--mantine-color-blue-6)'}
                />
                <text
                  x={LABEL_WIDTH + BAR_SPACE + 8}
                  y={y + ROW_HEIGHT / 2}
                  dominantBaseline="central"
                  fontSize={13}
                  fontWeight={700}
                  fill="currentColor"
                >
                  {numberFormat.format(row.total)}
                </text>
              </g>
            );
          })}
        </svg>
      )}
    </Paper>
  );
}
