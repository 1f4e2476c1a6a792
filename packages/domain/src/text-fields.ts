import { isStorableText, TEXT_LIMITS, TEXT_MESSAGES, tooLongMessage } from './text-limits.ts';
import { z } from './zod-locale.ts';

/**
 * A text of at most `max` characters (after trimming), storable, possibly empty: `limitedText(TEXT_LIMITS.search)`.
 * `typeMessage` is what a missing or non-text value gets.
 */
export function limitedText(max: number, typeMessage?: string) {
  return z
    .string(typeMessage === undefined ? undefined : { error: typeMessage })
    .trim()
    .max(max, { error: tooLongMessage(max) })
    .refine(isStorableText, { error: TEXT_MESSAGES.forbiddenCharacter });
}

/**
 * A required text field: absent, non-string or blank all give the same French message; longer than `max`
 * (a label's 255 by default) or holding a NUL, its own message. `requiredText("L'objectif est requis", TEXT_LIMITS.longText)`.
 */
export function requiredText(message: string, max: number = TEXT_LIMITS.label) {
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: tooLongMessage(max) })
    .refine(isStorableText, { error: TEXT_MESSAGES.forbiddenCharacter });
}

/** An optional search text (`?search=`), limited like a search box. */
export const searchTextField = limitedText(TEXT_LIMITS.search).optional();

/**
 * The most characters a schema's text takes, looking through optional, default, pipe and preprocess wrappers:
 * `textLimitOf(sectorSchema.shape.libsecteur)` is 255; undefined for a schema that holds no limited text.
 * The forms read their inputs' `maxLength` from it, so the limit is written only in the schema.
 */
export function textLimitOf(schema: z.core.$ZodType | undefined): number | undefined {
  if (!schema) return undefined;
  const def = schema._zod.def as z.core.$ZodTypeDef & { in?: z.core.$ZodType; out?: z.core.$ZodType; innerType?: z.core.$ZodType };
  if (def.type === 'string') {
    const limits = (def.checks ?? [])
      .map((check) => check._zod.def as z.core.$ZodCheckDef & { maximum?: number })
      .flatMap((check) => (check.check === 'max_length' && check.maximum !== undefined ? [check.maximum] : []));
    return limits.length > 0 ? Math.min(...limits) : undefined;
  }
  if (def.type === 'pipe') return textLimitOf(def.in) ?? textLimitOf(def.out);
  return textLimitOf(def.innerType);
}
