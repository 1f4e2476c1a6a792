import { reformeFiltersSchema } from './reforme.ts';
import { ETATS_MOR, type EtatMor } from './reforme-rules.ts';
import { z } from './zod-locale.ts';

/**
 * Where a reform stands today (issue 16): from its dates, today's date and the progress of its results.
 * The rule is written in docs/decisions.md ("Portfolio status"); the server's SQL mirror
 * (modules/portfolio) is tested against this function on the same table of cases.
 */

/** Most urgent first: the overview's "sorted by lateness" follows this order. */
export const PORTFOLIO_STATUSES = [
  { value: 'en_retard', label: 'En retard' },
  { value: 'sans_suivi', label: 'Sans suivi' },
  { value: 'a_risque', label: 'À risque' },
  { value: 'dans_les_temps', label: 'Dans les temps' },
  { value: 'non_demarree', label: 'Non démarrée' },
  { value: 'terminee', label: 'Terminée' },
] as const;
export type PortfolioStatus = (typeof PORTFOLIO_STATUSES)[number]['value'];
export const PORTFOLIO_STATUS_VALUES = PORTFOLIO_STATUSES.map((status) => status.value) as [PortfolioStatus, ...PortfolioStatus[]];

/** A reform in progress with no follow-up record for longer than this is "Sans suivi depuis N jours". */
export const STALE_AFTER_DAYS = 90;
/** "À risque": its progress trails the share of its period already spent by more than this. */
export const RISK_MARGIN = 0.25;

/** What the status reads from a reform: its period and a summary of its active results. */
export interface ProgressSummary {
  /** `YYYY-MM-DD`. */
  date_debut: string;
  date_fin: string;
  /** Active results, and how many of them are validated (reached). */
  results_total: number;
  results_validated: number;
  /** Sum over the active results of their progress in [0, 1]: 1 when validated, else the latest rate / 100, capped. */
  progress_sum: number;
  /** Date of the latest follow-up record of an active result, `YYYY-MM-DD`, or null. */
  last_suivi_date: string | null;
}

export interface PortfolioVerdict {
  status: PortfolioStatus;
  /** Overall progress in [0, 1]: the mean of the results' progress (0 without results). */
  progress: number;
  /** Days since the latest follow-up record (since the start when there is none), from the start on. */
  days_without_suivi: number | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from `from` to `to` (`YYYY-MM-DD`), counted on the calendar, whatever the time zone. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to.slice(0, 10)}T00:00:00Z`) - Date.parse(`${from.slice(0, 10)}T00:00:00Z`)) / DAY_MS);
}

/** One result's progress in [0, 1]: reached when validated, else its latest rate (a percentage) capped. */
export function resultProgress(validated: boolean, latestRate: number | null): number {
  if (validated) return 1;
  if (latestRate === null || !Number.isFinite(latestRate)) return 0;
  return Math.min(1, Math.max(0, latestRate / 100));
}

/**
 * The rule, first match wins: every result reached -> Terminée; before its start -> Non démarrée; past its end
 * -> En retard; no follow-up for more than STALE_AFTER_DAYS -> Sans suivi; progress behind the time spent by
 * more than RISK_MARGIN -> À risque; otherwise Dans les temps.
 */
export function portfolioStatusOf(summary: ProgressSummary, today: string): PortfolioVerdict {
  const progress = summary.results_total > 0 ? Math.min(1, summary.progress_sum / summary.results_total) : 0;
  const started = daysBetween(summary.date_debut, today) >= 0;
  const days_without_suivi = started ? daysBetween(summary.last_suivi_date ?? summary.date_debut, today) : null;
  const verdict = (status: PortfolioStatus): PortfolioVerdict => ({ status, progress, days_without_suivi });

  if (summary.results_total > 0 && summary.results_validated >= summary.results_total) return verdict('terminee');
  if (!started) return verdict('non_demarree');
  if (daysBetween(summary.date_fin, today) > 0) return verdict('en_retard');
  if (days_without_suivi !== null && days_without_suivi > STALE_AFTER_DAYS) return verdict('sans_suivi');
  // Both ends count: a reform from the 1st to the 31st has spent 1/31 of its time on the 1st.
  const elapsed = (daysBetween(summary.date_debut, today) + 1) / (daysBetween(summary.date_debut, summary.date_fin) + 1);
  if (progress < elapsed - RISK_MARGIN) return verdict('a_risque');
  return verdict('dans_les_temps');
}

/** The badge's text: "Sans suivi depuis 120 jours" names the days. */
export function portfolioStatusLabel(verdict: Pick<PortfolioVerdict, 'status' | 'days_without_suivi'>): string {
  if (verdict.status === 'sans_suivi' && verdict.days_without_suivi !== null)
    return `Sans suivi depuis ${verdict.days_without_suivi} jours`;
  return PORTFOLIO_STATUSES.find((status) => status.value === verdict.status)?.label ?? verdict.status;
}

export const PORTFOLIO_MESSAGES = {
  title: 'Suivi des réformes',
  overviewLabel: 'Portefeuille des réformes',
  status: 'Statut',
  progress: 'Avancement',
  lastSuivi: 'Dernier suivi',
  noSuivi: 'Aucun suivi',
  empty: 'Aucune réforme ne correspond à ces critères',
  countersTitle: 'Avancement du portefeuille',
  exportCsv: 'Exporter en CSV',
  exportXlsx: 'Exporter en Excel',
  exportTitle: 'Export du portefeuille',
  sheetName: 'Portefeuille',
} as const;

/** The file name of an export of the overview, dated: `portefeuille-reformes-2026-11-25.xlsx`. */
export const portfolioExportName = (day: string, extension: 'csv' | 'xlsx') => `portefeuille-reformes-${day}.${extension}`;

/** The overview's filters (issue 16): those of the reform lists, plus the état and the status. */
export const portfolioFiltersSchema = reformeFiltersSchema.omit({ couverture_id: true }).extend({
  etat_mor: z.enum(ETATS_MOR.map((etat) => etat.value) as [EtatMor, ...EtatMor[]]).optional(),
  status: z.enum(PORTFOLIO_STATUS_VALUES).optional(),
});
export type PortfolioFilters = z.infer<typeof portfolioFiltersSchema>;
