import { parseAmount } from '@reformes/domain';
import dayjs from 'dayjs';

/** Spec §9: list pages show long French dates — `longDate('2026-01-15')` is "15 janvier 2026". */
export function longDate(value: string | null | undefined): string {
  return value ? dayjs(value).locale('fr').format('D MMMM YYYY') : '';
}

/** Day-month-year: `dayMonthYear('2026-01-15')` is "15/01/2026". */
export function dayMonthYear(value: string | null | undefined): string {
  return value ? dayjs(value).format('DD/MM/YYYY') : '';
}

/** Day-month-year and time (my records, history): "15/01/2026 à 09:30". */
export function dateTime(value: string | null | undefined): string {
  return value ? dayjs(value).format('DD/MM/YYYY [à] HH:mm') : '';
}

const euro = new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });

/** "1234.5" (the API's numeric string) or 1234.5 -> "1 234,50 €"; blank stays blank. */
export function formatEuro(value: string | number | null | undefined): string {
  const amount = parseAmount(value ?? null);
  return amount === null || !Number.isFinite(amount) ? '' : euro.format(amount);
}
