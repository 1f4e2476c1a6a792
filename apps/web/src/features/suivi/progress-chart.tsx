import { Group, Text } from '@mantine/core';
import { measureText, parseAmount } from '@reformes/domain';
import dayjs from 'dayjs';
import { useId } from 'react';
import { longDate } from '../../components/french-format.ts';
import type { SuiviResultat } from './suivi-api.ts';

const WIDTH = 560;
const HEIGHT = 220;
const MARGIN = { top: 14, right: 78, bottom: 30, left: 56 };
const PLOT_WIDTH = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_HEIGHT = HEIGHT - MARGIN.top - MARGIN.bottom;

const COLORS = {
  achieved: 'var(--mantine-color-blue-7)',
  target: 'var(--mantine-color-green-8)',
  reference: 'var(--mantine-color-gray-7)',
  grid: 'var(--mantine-color-gray-3)',
};

/** The smallest "round" number at or above `value`: 1, 2, 2.5 or 5 times a power of ten (`niceCeil(4300)` is 5000). */
export function niceCeil(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= value) ?? 10;
  return step * magnitude;
}

const numberOf = (value: string) => {
  const number = parseAmount(value);
  return number !== null && Number.isFinite(number) ? number : 0;
};

/** What the chart shows, in words: the two lines, then every achieved value with its date. */
export function progressChartText(result: Pick<SuiviResultat, 'valeur_cible' | 'valeurref' | 'suivi_results'>): string {
  const values = result.suivi_results.map((record) => `${longDate(record.date)} : ${measureText(record.valeur_realise)}`).join(' ; ');
  return `Valeur cible ${measureText(result.valeur_cible)}, valeur de référence ${measureText(result.valeurref)}. Valeurs réalisées : ${values}.`;
}

interface ProgressChartProps {
  result: Pick<SuiviResultat, 'libresult' | 'valeur_cible' | 'valeurref' | 'suivi_results'>;
}

/**
 * The achieved value over time (a line through the records, placed by date) against the target and
 * reference values (dashed lines). Plain SVG with role="img" and a text alternative that says it all.
 */
export function ProgressChart({ result }: ProgressChartProps) {
  const id = useId();
  const records = result.suivi_results;
  if (records.length === 0) return null;

  const target = numberOf(result.valeur_cible);
  const reference = numberOf(result.valeurref);
  const values = records.map((record) => numberOf(record.valeur_realise));
  const top = niceCeil(Math.max(target, reference, ...values));
  const y = (value: number) => MARGIN.top + PLOT_HEIGHT - (Math.max(0, value) / top) * PLOT_HEIGHT;

  const times = records.map((record) => dayjs(record.date).valueOf());
  const first = Math.min(...times);
  const span = Math.max(...times) - first;
  const x = (time: number) => MARGIN.left + (span === 0 ? PLOT_WIDTH / 2 : ((time - first) / span) * PLOT_WIDTH);
  const points = records.map((record, index) => ({ record, x: x(times[index]), y: y(values[index]) }));
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((share) => share * top);
  const labelled = datesToLabel(points);

  return (
    <figure style={{ margin: 0 }}>
      <svg
        role="img"
        aria-labelledby={`${id}-title ${id}-desc`}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        style={{ maxWidth: WIDTH * 1.3, display: 'block' }}
      >
        <title id={`${id}-title`}>{`Évolution de la valeur réalisée : ${result.libresult}`}</title>
        <desc id={`${id}-desc`}>{progressChartText(result)}</desc>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={MARGIN.left} x2={MARGIN.left + PLOT_WIDTH} y1={y(tick)} y2={y(tick)} stroke={COLORS.grid} />
            <text x={MARGIN.left - 6} y={y(tick)} textAnchor="end" dominantBaseline="central" fontSize={11} fill="currentColor">
              {measureText(tick)}
            </text>
          </g>
        ))}
        <line
          x1={MARGIN.left}
          x2={MARGIN.left + PLOT_WIDTH}
          y1={y(reference)}
          y2={y(reference)}
          stroke={COLORS.reference}
          strokeWidth={2}
          strokeDasharray="3 4"
        />
        <text x={MARGIN.left + PLOT_WIDTH + 6} y={y(reference)} dominantBaseline="central" fontSize={11} fill={COLORS.reference}>
          Référence
        </text>
        <line
          x1={MARGIN.left}
          x2={MARGIN.left + PLOT_WIDTH}
          y1={y(target)}
          y2={y(target)}
          stroke={COLORS.target}
          strokeWidth={2}
          strokeDasharray="8 4"
        />
        <text x={MARGIN.left + PLOT_WIDTH + 6} y={y(target)} dominantBaseline="central" fontSize={11} fill={COLORS.target}>
          Cible
        </text>
        <polyline
          points={points.map((point) => `${point.x},${point.y}`).join(' ')}
          fill="none"
          stroke={COLORS.achieved}
          strokeWidth={2.5}
        />
        {points.map((point) => (
          <circle key={point.record.id} cx={point.x} cy={point.y} r={4} fill={COLORS.achieved} />
        ))}
        {labelled.map((point) => (
          <text key={point.record.id} x={point.x} y={HEIGHT - 8} textAnchor={anchorOf(point.x)} fontSize={11} fill="currentColor">
            {dayjs(point.record.date).format('DD/MM/YYYY')}
          </text>
        ))}
      </svg>
      <Group component="figcaption" gap="md" mt={4} aria-hidden>
        <Legend color={COLORS.achieved} label="Valeur réalisée" />
        <Legend color={COLORS.target} label="Valeur cible" dashed />
        <Legend color={COLORS.reference} label="Valeur de référence" dashed />
      </Group>
    </figure>
  );
}

const LABEL_GAP = 80;

/** The first and last dates always, the others where they do not overlap their neighbours. */
function datesToLabel<Point extends { x: number }>(points: Point[]): Point[] {
  if (points.length <= 1) return points;
  const last = points[points.length - 1];
  const labelled = [points[0]];
  for (const point of points.slice(1, -1)) {
    if (point.x - labelled[labelled.length - 1].x >= LABEL_GAP && last.x - point.x >= LABEL_GAP) labelled.push(point);
  }
  return [...labelled, last];
}

/** Dates at the edges of the plot are anchored inwards so that they stay inside the picture. */
function anchorOf(x: number): 'start' | 'middle' | 'end' {
  if (x <= MARGIN.left + 1) return 'start';
  if (x >= MARGIN.left + PLOT_WIDTH - 1) return 'end';
  return 'middle';
}

function Legend({ color, label, dashed }: { color: string; label: string; dashed?: boolean }) {
  return (
    <Group gap={6}>
      <svg width={22} height={8} aria-hidden>
        <line x1={0} x2={22} y1={4} y2={4} stroke={color} strokeWidth={dashed ? 2 : 3} strokeDasharray={dashed ? '5 3' : undefined} />
      </svg>
      <Text size="xs">{label}</Text>
    </Group>
  );
}
