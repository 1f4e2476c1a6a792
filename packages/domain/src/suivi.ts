import { z } from 'zod';
import { requiredId } from './reference.ts';
import { isoDateField, parseAmount } from './reforme.ts';

export const SUIVI_MESSAGES = {
  title: 'Donnée de suivi',
  resultRequired: 'Veuillez sélectionner un résultat',
  dateTitle: 'Date Incorrect',
  dateBeforeLast: 'On ne peut avoir une date antérieur au dernier enregistrement!',
  rate: 'Le taux de réalisation doit être un nombre positif ou nul',
  value: 'La valeur réalisée doit être un nombre positif ou nul',
  date: 'La date est requise',
  created: 'Donnée de suivi enregistrée avec succès',
  noFollowUp: 'Aucune donnée de suivi',
  validated: 'Validé',
  pending: "En attente d'atteinte",
  reached: 'atteint',
} as const;

const nonNegative = (message: string) =>
  z
    .unknown()
    .transform(parseAmount)
    .refine((value): value is number => value !== null && Number.isFinite(value) && value >= 0, { error: message });

/** Follow-up record (spec §3, §5): rate and value numeric >= 0, a date, the result. */
export const suiviSchema = z.object({
  result_id: requiredId(SUIVI_MESSAGES.resultRequired),
  taux_realisat: nonNegative(SUIVI_MESSAGES.rate),
  valeur_realise: nonNegative(SUIVI_MESSAGES.value),
  date: isoDateField(SUIVI_MESSAGES.date),
});
export type SuiviInput = z.input<typeof suiviSchema>;

/** Spec §5: a new record may not be dated before the last one (same day is fine). */
export function isBeforeLastRecord(date: string, records: ReadonlyArray<{ date: string }>): boolean {
  const last = records.reduce<string | undefined>((latest, record) => (!latest || record.date > latest ? record.date : latest), undefined);
  return last !== undefined && date.slice(0, 10) < last.slice(0, 10);
}

/** Status text of an expected result (spec §4): "Validé", or in the validation list "En attente d'atteinte" / "atteint". */
export function resultStatusText(status: number, inValidationList = false): string {
  if (!inValidationList) return status === 1 ? SUIVI_MESSAGES.validated : SUIVI_MESSAGES.pending;
  return status === 1 ? SUIVI_MESSAGES.reached : SUIVI_MESSAGES.pending;
}
