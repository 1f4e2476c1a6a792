import { isWithinLimit, NUMBER_LIMITS, parseAmount, tooLargeNumberMessage } from './numbers.ts';
import { requiredId } from './reference.ts';
import { isoDateField } from './reforme.ts';
import { SUIVI_MESSAGES } from './suivi-rules.ts';
import { z } from './zod-locale.ts';

const nonNegative = (message: string) =>
  z
    .unknown()
    .transform(parseAmount)
    .refine((value): value is number => value !== null && Number.isFinite(value) && value >= 0, { error: message })
    .refine((value) => isWithinLimit(value, NUMBER_LIMITS.measure), { error: tooLargeNumberMessage(NUMBER_LIMITS.measure) });

/** Follow-up record (spec §3, §5): rate and value numeric >= 0, a date, the result. */
export const suiviSchema = z.object({
  result_id: requiredId(SUIVI_MESSAGES.resultRequired),
  taux_realisat: nonNegative(SUIVI_MESSAGES.rate),
  valeur_realise: nonNegative(SUIVI_MESSAGES.value),
  date: isoDateField(SUIVI_MESSAGES.date),
});
export type SuiviInput = z.input<typeof suiviSchema>;
