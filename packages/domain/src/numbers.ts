/** "1 234,50", "1234.5" or 1234.5 -> 1234.5; blank -> null; anything else -> NaN. */
export function parseAmount(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const compact = value.replace(/[\s\u00a0\u202f€]/g, '');
  if (compact === '') return null;
  if (!/^-?\d+([.,]\d+)?$/.test(compact)) return Number.NaN;
  return Number(compact.replace(',', '.'));
}

/** Amounts are stored as numeric(15, 2), measures as numeric(18, 4): the first number each cannot hold. */
export const NUMBER_LIMITS = { amount: 1e13, measure: 1e14 } as const;

const formats = new Map<number, Intl.NumberFormat>();

/**
 * The French number format with at most `maximumFractionDigits` decimals, built on first use and kept: building one
 * costs tens of milliseconds on a slow phone, which a page that loads this module must not pay before it needs one
 * (issue 34).
 */
export function frenchNumberFormat(maximumFractionDigits = 3): Intl.NumberFormat {
  let format = formats.get(maximumFractionDigits);
  if (!format) {
    format = new Intl.NumberFormat('fr-FR', { maximumFractionDigits });
    formats.set(maximumFractionDigits, format);
  }
  return format;
}

/** The group separator of fr-FR (a narrow no-break space), as `Intl.NumberFormat('fr-FR')` writes it. */
const FRENCH_GROUP = '\u202f';

/**
 * "12 345": a whole number as `frenchNumberFormat()` writes it, without ICU. The limits in our messages are built
 * when the modules load, and an ICU number format maps about 5 MB of the node binary's locale data into a server
 * that may never show a number (issue 33); anything but a safe integer goes through ICU.
 */
export function frenchInteger(value: number): string {
  if (!Number.isSafeInteger(value)) return frenchNumberFormat().format(value);
  const digits = String(Math.abs(value));
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, FRENCH_GROUP);
  return value < 0 ? `-${grouped}` : grouped;
}

/** "Ce nombre doit être inférieur à 10 000 000 000 000". */
export function tooLargeNumberMessage(limit: number): string {
  return `Ce nombre doit être inférieur à ${frenchInteger(limit)}`;
}

/** True unless `value` is a number at or beyond `limit` (either sign): blanks and NaN have their own message. */
export const isWithinLimit = (value: number | null, limit: number) => value === null || !Number.isFinite(value) || Math.abs(value) < limit;
