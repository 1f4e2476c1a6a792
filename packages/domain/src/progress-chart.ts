import { longDate } from './french-format.ts';
import { measureText } from './suivi-rules.ts';

/**
 * What a result's progress chart shows, drawn by the back office (Recharts) and by the public reform's page (plain
 * SVG, apps/web/src/pages): its three lines, its axes, its title and its text for assistive technologies.
 */

/** The chart's three lines, told apart by colour and by dash (WCAG 1.4.1), each 3:1 or more against white. */
export const SERIES = [
  { name: 'realise', label: 'Valeur réalisée', color: 'blue.7', css: 'var(--mantine-color-blue-7)', dashed: undefined },
  { name: 'cible', label: 'Valeur cible', color: 'green.8', css: 'var(--mantine-color-green-8)', dashed: '8 4' },
  { name: 'reference', label: 'Valeur de référence', color: 'gray.7', css: 'var(--mantine-color-gray-7)', dashed: '3 4' },
] as const;

/** What both follow-up screens know of a result: its target and reference, and its measures over time. */
export interface ChartedResult {
  libresult: string;
  valeur_cible: string;
  valeurref: string;
  suivi_results: ReadonlyArray<{ date: string; valeur_realise: string; taux_realisat: string }>;
}

/** One point of the chart: the date as a time (placed by date, not evenly), the measure, the target and the reference. */
export interface ChartPoint {
  time: number;
  realise: number;
  cible: number;
  reference: number;
}

/** The smallest "round" number at or above `value`: 1, 2, 2.5 or 5 times a power of ten (`niceCeil(4300)` is 5000). */
export function niceCeil(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= value) ?? 10;
  return step * magnitude;
}

const DAY = 86_400_000;

/** The time axis: the first to the last measure, widened by a month each side when there is only one date. */
export function timeDomain(points: ChartPoint[]): [number, number] {
  const first = points[0]?.time ?? 0;
  const last = points[points.length - 1]?.time ?? 0;
  return first === last ? [first - 30 * DAY, last + 30 * DAY] : [first, last];
}

/** The value axis, from 0 to a round number above every value drawn. */
export function valueDomain(points: ChartPoint[]): [number, number] {
  return [0, niceCeil(Math.max(0, ...points.flatMap((point) => [point.realise, point.cible, point.reference])))];
}

/** The chart's title, which also names its table of data. */
export const progressChartTitle = (result: Pick<ChartedResult, 'libresult'>) => `Évolution de la valeur réalisée : ${result.libresult}`;

/** What the chart shows, in words: the two lines, then every achieved value with its date, in date order. */
export function progressChartText(result: ChartedResult): string {
  const values = [...result.suivi_results]
    .sort((a, b) => a.date.localeCompare(b.date))
    .map((record) => `${longDate(record.date)} : ${measureText(record.valeur_realise)}`)
    .join(' ; ');
  return `Valeur cible ${measureText(result.valeur_cible)}, valeur de référence ${measureText(result.valeurref)}. Valeurs réalisées : ${values}.`;
}
