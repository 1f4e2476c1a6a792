import { parseAmount } from './numbers.ts';

/**
 * French dates and amounts as every screen writes them, the back office and the public pages alike (issue 41: the
 * pages, apart from the React app, may import the domain only). Written out rather than Intl.DateTimeFormat:
 * building the first French date format costs a phone some 100 ms (ICU's data), a long task on the public list
 * (issue 34); the text is Intl's own (french-format.test.ts).
 */
const MONTHS = ['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'];
const twoDigits = (value: number) => String(value).padStart(2, '0');

/** A calendar date (yyyy-mm-dd) is that day where the reader is; a timestamp is converted to the reader's time. */
function toDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const date = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Spec §9: list pages show long French dates — `longDate('2026-01-15')` is "15 janvier 2026". */
export function longDate(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? `${date.getDate()} ${MONTHS[date.getMonth()]} ${date.getFullYear()}` : '';
}

/** Day-month-year: `dayMonthYear('2026-01-15')` is "15/01/2026". */
export function dayMonthYear(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? `${twoDigits(date.getDate())}/${twoDigits(date.getMonth() + 1)}/${date.getFullYear()}` : '';
}

/** Day-month-year and time (my records, history): "15/01/2026 à 09:30". */
export function dateTime(value: string | null | undefined): string {
  const date = toDate(value);
  return date ? `${dayMonthYear(value)} à ${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}` : '';
}

/** Made on first use: building it costs a phone milliseconds, which a page must not spend as it loads (issue 34). */
let euro: Intl.NumberFormat | undefined;

/** "1234.5" (the API's numeric string) or 1234.5 -> "1 234,50 €"; blank stays blank. */
export function formatEuro(value: string | number | null | undefined): string {
  const amount = parseAmount(value ?? null);
  if (amount === null || !Number.isFinite(amount)) return '';
  euro ??= new Intl.NumberFormat('fr-FR', { style: 'currency', currency: 'EUR' });
  return euro.format(amount);
}
