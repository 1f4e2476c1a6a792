import {
  type ChartedResult,
  type ChartPoint,
  dayMonthYear,
  longDate,
  measureText,
  progressChartText,
  progressChartTitle,
  rateText,
  SERIES,
  timeDomain,
  valueDomain,
} from '@reformes/domain';
import { icon } from '../dom.ts';
import { type Html, html } from '../html.ts';

/** The colours of SERIES (Mantine's blue 7, green 8, gray 7), for an SVG drawn without Mantine's variables. */
const COLORS = { realise: '#1c7ed6', cible: '#2f9e44', reference: '#495057' } as const;
const WIDTH = 600;
const HEIGHT = 220;
const MARGIN = { left: 64, right: 16, top: 12, bottom: 28 };

const numberOf = (value: string) => {
  const number = Number(value.replace(',', '.'));
  return Number.isFinite(number) ? number : 0;
};
const timeOf = (day: string) => {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year, month - 1, date).getTime();
};

function pointsOf(result: ChartedResult): ChartPoint[] {
  const cible = numberOf(result.valeur_cible);
  const reference = numberOf(result.valeurref);
  return result.suivi_results
    .map((record) => ({ time: timeOf(record.date), realise: numberOf(record.valeur_realise), cible, reference }))
    .sort((a, b) => a.time - b.time);
}

const MAX_DATE_TICKS = 5;

/** At most five of the measures' dates, spread evenly and always the first and the last (as progress-line-chart.tsx). */
function dateTicks(points: ChartPoint[]): number[] {
  if (points.length <= MAX_DATE_TICKS) return points.map((point) => point.time);
  const step = (points.length - 1) / (MAX_DATE_TICKS - 1);
  return Array.from({ length: MAX_DATE_TICKS }, (_, index) => points[Math.round(index * step)].time);
}

/** The line chart of the back office's ProgressChart, as plain SVG: achieved values by date, target and reference as dashed levels. */
function chartSvg(points: ChartPoint[]): Html {
  const [start, end] = timeDomain(points);
  const [, top] = valueDomain(points);
  const x = (time: number) => MARGIN.left + ((time - start) / (end - start)) * (WIDTH - MARGIN.left - MARGIN.right);
  const y = (value: number) => MARGIN.top + (1 - value / top) * (HEIGHT - MARGIN.top - MARGIN.bottom);
  const grid = [0, top / 2, top].map(
    (value) =>
      html`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(value)}" y2="${y(value)}" stroke="#dee2e6"/><text x="${MARGIN.left - 6}" y="${y(value) + 4}" text-anchor="end" font-size="11" fill="#495057">${value.toLocaleString('fr-FR', { maximumFractionDigits: 2 })}</text>`,
  );
  const ticks = dateTicks(points);
  const dates = ticks.map((time, index) => {
    const anchor = ticks.length === 1 ? 'middle' : index === 0 ? 'start' : index === ticks.length - 1 ? 'end' : 'middle';
    // A timestamp rather than the day's ISO text: the reader's midnight, not UTC's, the day before.
    const day = dayMonthYear(new Date(time).toISOString());
    return html`<text x="${x(time)}" y="${HEIGHT - 8}" text-anchor="${anchor}" font-size="11" fill="#495057">${day}</text>`;
  });
  const level = (value: number, color: string, dash: string) =>
    html`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(value)}" y2="${y(value)}" stroke="${color}" stroke-width="2" stroke-dasharray="${dash}"/>`;
  const line = points.map((point) => `${x(point.time)},${y(point.realise)}`).join(' ');
  const dots = points.map((point) => html`<circle cx="${x(point.time)}" cy="${y(point.realise)}" r="3.5" fill="${COLORS.realise}"/>`);
  return html`<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" aria-hidden="true" focusable="false">${grid}${dates}${level(points[0]?.cible ?? 0, COLORS.cible, SERIES[1].dashed)}${level(points[0]?.reference ?? 0, COLORS.reference, SERIES[2].dashed)}<polyline points="${line}" fill="none" stroke="${COLORS.realise}" stroke-width="2.5"/>${dots}</svg>`;
}

/**
 * A result's achieved value over time (components/progress-chart/progress-chart.tsx, without React): a figure whose
 * drawing is an image named by its title and described by every value, and the same figures as a table on demand
 * (the button is wired by public-reforme.ts).
 */
export function progressChartHtml(result: ChartedResult, id: string): Html {
  const title = progressChartTitle(result);
  const records = [...result.suivi_results].sort((a, b) => a.date.localeCompare(b.date));
  const legend = SERIES.map(
    (series) =>
      html`<span class="legend" style="color:${COLORS[series.name]}"><span class="legend-line${series.dashed ? ' dashed' : ''}"></span><span style="color:#000">${series.label}</span></span>`,
  );
  const rows = records.map(
    (record) =>
      html`<tr><td>${longDate(record.date)}</td><td>${measureText(record.valeur_realise)}</td><td>${rateText(record.taux_realisat)}</td></tr>`,
  );
  return html`<figure class="chart" aria-labelledby="${id}-title"><figcaption class="small" style="font-weight:600" id="${id}-title">${title}</figcaption><span class="visually-hidden" id="${id}-desc">${progressChartText(result)}</span><div role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc">${chartSvg(pointsOf(result))}</div><div class="row"><div class="row-start" aria-hidden="true">${legend}</div><button type="button" class="btn-link row-start" data-chart-table="${id}-table" aria-expanded="false" aria-controls="${id}-table">${icon('table')}<span>Afficher les données du graphique</span></button></div><div id="${id}-table" class="table-scroll" hidden><table class="table table-bordered" style="min-width:480px"><caption>${title} (valeur cible ${measureText(result.valeur_cible)}, valeur de référence ${measureText(result.valeurref)})</caption><thead><tr><th scope="col">Date</th><th scope="col">Valeur réalisée</th><th scope="col">Taux de réalisation</th></tr></thead><tbody>${rows}</tbody></table></div></figure>`;
}
