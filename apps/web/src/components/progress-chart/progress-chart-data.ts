import { type ChartedResult, type ChartPoint, parseAmount } from '@reformes/domain';
import dayjs from 'dayjs';

// The rest of the chart's data (ChartedResult, ChartPoint, niceCeil, the domains, the title and text) is the domain's
// progress-chart.ts, shared with the public reform page; chartPoints stays here because it reads dates with dayjs.

const numberOf = (value: string) => {
  const number = parseAmount(value);
  return number !== null && Number.isFinite(number) ? number : 0;
};

/** The measures in date order, each with the result's target and reference so that they draw as lines. */
export function chartPoints(result: ChartedResult): ChartPoint[] {
  const cible = numberOf(result.valeur_cible);
  const reference = numberOf(result.valeurref);
  return result.suivi_results
    .map((record) => ({ time: dayjs(record.date).valueOf(), realise: numberOf(record.valeur_realise), cible, reference }))
    .sort((a, b) => a.time - b.time);
}
