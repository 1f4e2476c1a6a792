import { frenchNumberFormat, parseAmount } from './numbers.ts';
import { REFORME_MESSAGES } from './reforme-rules.ts';

export const SUIVI_MESSAGES = {
  title: 'Donnée de suivi',
  resultRequired: 'Veuillez sélectionner un résultat',
  dateTitle: 'Date Incorrect',
  dateBeforeLast: 'On ne peut avoir une date antérieur au dernier enregistrement!',
  rate: 'Le taux de réalisation doit être un nombre positif ou nul',
  value: 'La valeur réalisée doit être un nombre positif ou nul',
  date: 'La date est requise',
  created: 'Donnée de suivi enregistrée avec succès',
  resultInactive: 'Ce résultat attendu ou son objectif est désactivé : aucune donnée de suivi ne peut y être ajoutée.',
  noFollowUp: 'Aucune donnée de suivi',
  validated: 'Validé',
  pending: "En attente d'atteinte",
  reached: 'atteint',
  // Screens (spec §2.10, §8)
  entryTitle: 'Données de suivi',
  viewTitle: 'Suivi des réformes',
  detailTitle: "Suivi d'une réforme",
  addTitle: 'Ajouter une donnée de suivi',
  validateTitle: 'Validation de résultat',
  noRecords: 'Aucune donnée de suivi pour ce résultat',
  noReformes: 'Aucune réforme à suivre',
} as const;

/** Spec §5: a new record may not be dated before the last one (same day is fine). */
export function isBeforeLastRecord(date: string, records: ReadonlyArray<{ date: string }>): boolean {
  const last = records.reduce<string | undefined>((latest, record) => (!latest || record.date > latest ? record.date : latest), undefined);
  return last !== undefined && date.slice(0, 10) < last.slice(0, 10);
}

/** Why a result cannot be validated, and what the server answers (409) and the screens say. */
export const RESULT_VALIDATION_MESSAGES = {
  inactive: REFORME_MESSAGES.resultInactive,
  alreadyValidated: REFORME_MESSAGES.resultAlreadyValidated,
  needsFollowUp: REFORME_MESSAGES.resultNeedsFollowUp,
} as const;
export type ResultValidationRefusal = keyof typeof RESULT_VALIDATION_MESSAGES;

export type ResultValidation = { ok: true } | { ok: false; reason: ResultValidationRefusal; message: string };

/**
 * Spec §4 "Result status": 0 -> 1 only while the result and its objective are active, once, and with at least
 * one follow-up record; the reasons are checked in that order. An `is_active` left out counts as active:
 * `resultValidationOf({ status: 0, suivi_results: [] })` is `{ ok: false, reason: 'needsFollowUp', message: … }`.
 */
export function resultValidationOf(
  result: { status: number; is_active?: boolean; suivi_results: ReadonlyArray<unknown> },
  objectif: { is_active?: boolean } = {},
): ResultValidation {
  const refuse = (reason: ResultValidationRefusal): ResultValidation => ({
    ok: false,
    reason,
    message: RESULT_VALIDATION_MESSAGES[reason],
  });
  if (result.is_active === false || objectif.is_active === false) return refuse('inactive');
  if (result.status !== 0) return refuse('alreadyValidated');
  if (result.suivi_results.length === 0) return refuse('needsFollowUp');
  return { ok: true };
}

/** Spec §4: a result may be validated once it has at least one follow-up record and is still pending (0). */
export function isResultValidable(result: { status: number; is_active?: boolean; suivi_results: ReadonlyArray<unknown> }): boolean {
  return resultValidationOf(result).ok;
}

/** Status text of an expected result (spec §4): "Validé", or in the validation list "En attente d'atteinte" / "atteint". */
export function resultStatusText(status: number, inValidationList = false): string {
  if (!inValidationList) return status === 1 ? SUIVI_MESSAGES.validated : SUIVI_MESSAGES.pending;
  return status === 1 ? SUIVI_MESSAGES.reached : SUIVI_MESSAGES.pending;
}

/**
 * An objective percentage as people read it, one decimal at most, never rounded up to 100 or down to 0:
 * `percentageText(100 / 3)` is "33,3 %", `percentageText(99.96)` is "99,9 %".
 */
export function percentageText(value: number): string {
  let shown = Math.round(value * 10) / 10;
  if (shown >= 100 && value < 100) shown = 99.9;
  if (shown <= 0 && value > 0) shown = 0.1;
  return `${frenchNumberFormat(1).format(shown)}\u00a0%`;
}

/** A number's shortest exact decimal writing, never in exponent form: 1e-7 -> "0.0000001", 1e21 -> "1000000000000000000000". */
function plainDecimal(value: number): string {
  const text = String(Math.abs(value));
  const exponential = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!exponential) return text;
  const [, first, rest = '', power] = exponential;
  const digits = first + rest;
  const exponent = Number(power);
  return exponent < 0 ? `0.${'0'.repeat(-exponent - 1)}${digits}` : digits.padEnd(exponent + 1, '0');
}

/**
 * The unrounded percentage (spec §4), as JavaScript writes the number, in French and without trailing zeros:
 * `exactPercentageText(100 / 3)` is "33,333333333333336 %", `exactPercentageText(50)` is "50 %".
 */
export function exactPercentageText(value: number): string {
  if (!Number.isFinite(value)) return '';
  const [whole, fraction] = plainDecimal(value).split('.');
  const sign = value < 0 ? '-' : '';
  const wholeText = frenchNumberFormat().format(BigInt(whole));
  return `${sign}${wholeText}${fraction ? `,${fraction}` : ''}\u00a0%`;
}

/** A measure the API sends as a numeric string, in French: "5000" -> "5 000", "12.5" -> "12,5"; blank stays blank. */
export function measureText(value: string | number | null | undefined): string {
  const number = parseAmount(value ?? null);
  return number === null || !Number.isFinite(number) ? '' : frenchNumberFormat(6).format(number);
}

/** A follow-up rate the API sends as a numeric string, in French with its sign: "12.5" -> "12,5 %"; blank stays blank. */
export function rateText(value: string | number | null | undefined): string {
  const text = measureText(value);
  return text && `${text}\u00a0%`;
}
