import { ERROR_CODE_VALUES } from '../error-codes.ts';
import { z } from '../zod-locale.ts';

/**
 * What the API answers, as zod schemas: the server sets them as `schema.response` (they serialise the
 * answer and describe it in the OpenAPI document) and the web app reads their wire types with `Shape<>`.
 */

/**
 * A point in time: a `Date` on the server (Drizzle's timestamp columns), an ISO string on the wire.
 * Raw SQL may already hand back the string; both are accepted on the way out.
 */
export const timestamp = z.codec(z.string(), z.union([z.date(), z.string()]), {
  decode: (text) => text,
  encode: (value) => (value instanceof Date ? value.toISOString() : value),
});

/** A calendar day, `YYYY-MM-DD` (Drizzle's date columns in string mode). */
export const day = z.string();

/** The wire form of a shape: what the web app receives once the server has serialised it. */
export type Shape<S extends z.ZodType> = z.input<S>;

/** `{message, data}`: every success answer. */
export const envelopeShape = <S extends z.ZodType>(data: S) => z.object({ message: z.string(), data });

export const messageShape = z.object({ message: z.string() });

/** One page of a list: the rows and the true total. */
export const pageShape = <S extends z.ZodType>(row: S) =>
  z.object({ data: z.array(row), current_page: z.number(), per_page: z.number(), total: z.number(), last_page: z.number() });

export type PageOf<Row> = { data: Row[]; current_page: number; per_page: number; total: number; last_page: number };

/** A list answer: the whole list (`isPaginate: false`) or one page of it (`isPaginate: true`). */
export const listShape = <S extends z.ZodType>(row: S) =>
  z.discriminatedUnion('isPaginate', [
    z.object({ message: z.string(), isPaginate: z.literal(false), data: z.array(row) }),
    z.object({ message: z.string(), isPaginate: z.literal(true), data: pageShape(row) }),
  ]);

/** A paged answer (searches, the reform lists): always one page. */
export const pagedShape = <S extends z.ZodType>(row: S) =>
  z.object({ message: z.string(), isPaginate: z.literal(true), data: pageShape(row) });

/**
 * `{message, errorsList, code}`: every refusal (4xx, 5xx); `errorsList` names the fields at fault, when any; `code`
 * (ERROR_CODES) is what code decides by, the message what a person reads.
 */
export const errorShape = z.object({
  message: z.string(),
  errorsList: z.record(z.string(), z.array(z.string())).optional(),
  code: z.enum(ERROR_CODE_VALUES),
});
