import { ResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Serialises an answer through its route's response shape (packages/domain/src/shapes). A shape strips
 * what it does not name, which keeps a column nobody meant to publish off the wire; outside production a
 * shape that drops a field instead fails the call, so a forgotten field shows in the tests rather than as
 * a silently missing value in the web app.
 */
export function responseSerializerCompiler(strict: boolean) {
  return ({ schema, method, url }: { schema: unknown; method: string; url: string }) =>
    (data: unknown): string => {
      const result = z.safeEncode(schema as z.ZodType, data);
      if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
      if (strict) {
        const dropped = droppedPaths(data, result.data);
        if (dropped.length > 0) {
          throw new ResponseSerializationError(method, url, {
            cause: new z.ZodError(
              dropped.map((at) => ({
                code: 'custom' as const,
                path: [at],
                message: 'the response shape drops this field',
                input: undefined,
              })),
            ),
          });
        }
      }
      return JSON.stringify(result.data);
    };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** The paths of `before` (an answer) that `after` (its serialised form) no longer holds. */
export function droppedPaths(before: unknown, after: unknown, at = '$'): string[] {
  if (Array.isArray(before) && Array.isArray(after)) {
    return before.flatMap((item, index) => droppedPaths(item, after[index], `${at}[${index}]`));
  }
  if (!isPlainObject(before) || !isPlainObject(after)) return [];
  return Object.entries(before).flatMap(([key, value]) => {
    if (value === undefined) return [];
    if (!(key in after)) return [`${at}.${key}`];
    return droppedPaths(value, after[key], `${at}.${key}`);
  });
}
