import { frenchInteger } from './numbers.ts';
/**
 * The longest text each kind of field takes, in characters (code points, as PostgreSQL counts them; an input's
 * `maxLength` counts UTF-16 units, so a form is never more lenient than the API). The columns are `text`:
 * these limits are the only ones, written once for the API and the forms.
 */
export const TEXT_LIMITS = {
  /** One line: labels, names, sigles, addresses, file names, role names. */
  label: 255,
  /** RFC 5321: a longer address cannot be delivered. */
  email: 254,
  phone: 20,
  password: 128,
  /** What a search box sends: no label is longer. */
  search: 255,
  /** Paragraphs: global objective, involved structures, difficulties, solutions, perspectives, instructions. */
  longText: 5000,
} as const;

/** The most ids or names one request may list (rights granted at once, roles of a user, files of a reform). */
export const MAX_LIST_ITEMS = 1000;

/** The largest id PostgreSQL's `integer` holds: a larger one names no row. */
export const ID_MAX = 2_147_483_647;

export const TEXT_MESSAGES = {
  forbiddenCharacter: 'Caractère non autorisé',
  /** A multipart body that cannot be read: no boundary, cut short, a broken part header. */
  malformedForm: 'Le formulaire envoyé est mal formé.',
} as const;

/** "Ce champ ne doit pas dépasser 5 000 caractères". */
export function tooLongMessage(max: number): string {
  return `Ce champ ne doit pas dépasser ${frenchInteger(max)} caractères`;
}

/** "Pas plus de 1 000 éléments". */
export function tooManyItemsMessage(max: number): string {
  return `Pas plus de ${frenchInteger(max)} éléments`;
}

/** "5 000 caractères au plus": the description of a long text field. */
export function limitDescription(max: number): string {
  return `${frenchInteger(max)} caractères au plus`;
}

/** "123 / 5 000": the counter of a long text field. */
export function lengthCounter(length: number, max: number): string {
  return `${frenchInteger(length)} / ${frenchInteger(max)}`;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * False for a text PostgreSQL cannot store as sent: a NUL character (refused by `text`), or half of a surrogate
 * pair (not Unicode: the driver would silently replace it). `isStorableText('a\u0000b')` is false.
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}
