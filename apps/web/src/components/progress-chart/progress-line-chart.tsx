import '@mantine/charts/styles.layer.css';
import { LineChart } from '@mantine/charts';
import { type ChartPoint, dayMonthYear, longDate, measureText, SERIES, timeDomain, valueDomain } from '@reformes/domain';
import dayjs from 'dayjs';
import { CHART_HEIGHT } from './chart-series.ts';

const MAX_DATE_TICKS = 5;

/** At most five of the measures' dates, spread evenly and always the first and the last. */
function dateTicks(points: ChartPoint[]): number[] {
  if (points.length <= MAX_DATE_TICKS) return points.map((point) => point.time);
  const step = (points.length - 1) / (MAX_DATE_TICKS - 1);
  return Array.from({ length: MAX_DATE_TICKS }, (_, index) => points[Math.round(index * step)].time);
}

/** Recharts hands the axis and the tooltip a time, or nothing while no point is active. */
const fromTime =
  (format: (date: string) => string) =>
  (time: unknown): string =>
    typeof time === 'number' && Number.isFinite(time) ? format(dayjs(time).format('YYYY-MM-DD')) : '';

const [achieved, target, reference] = SERIES;

/**
 * The chart itself, in its own chunk (recharts weighs about 130 KiB compressed): only the screens that draw a chart
 * load it. The achieved values are a line through the measures, placed by date; the target and the reference are
 * levels across the whole period, drawn as dashed lines even when there is a single measure. Its words are outside
 * it: the caller names it and gives its text alternative and table.
 */
export default function ProgressLineChart({ points }: { points: ChartPoint[] }) {
  const [, top] = valueDomain(points);
  const level = (series: typeof target | typeof reference, y: number) => ({
    y,
    color: series.color,
    strokeDasharray: series.dashed,
    strokeWidth: 2,
    ifOverflow: 'extendDomain' as const,
  });
  return (
    <LineChart
      h={CHART_HEIGHT}
      data={points}
      dataKey="time"
      series={[{ name: achieved.name, color: achieved.color, label: achieved.label }]}
      referenceLines={[level(target, points[0].cible), level(reference, points[0].reference)]}
      curveType="linear"
      strokeWidth={2.5}
      gridAxis="y"
      valueFormatter={(value) => measureText(value)}
      xAxisProps={{
        type: 'number',
        scale: 'time',
        domain: timeDomain(points),
        ticks: dateTicks(points),
        tickFormatter: fromTime(dayMonthYear),
        interval: 'preserveStartEnd',
      }}
      yAxisProps={{ domain: [0, top], ticks: [0, 0.25, 0.5, 0.75, 1].map((share) => share * top), width: 64 }}
      tooltipProps={{ labelFormatter: fromTime(longDate) }}
      // Hidden from assistive technologies (the caller's image says it all): nothing in it takes the focus.
      lineChartProps={{ accessibilityLayer: false, margin: { top: 12, right: 36, bottom: 4, left: 4 } }}
      tooltipAnimationDuration={0}
    />
  );
}
