import type { z } from 'zod';
import { type ErrorsList, invalid } from './app-error.ts';

/** Validates a body whose rules depend on the request (the caller's role, its shape): 422 with errorsList otherwise. */
export function parseOrInvalid<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors: ErrorsList = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path.join('.') || 'body';
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  throw invalid(errors);
}
