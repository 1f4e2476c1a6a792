const isSqlState = (code: unknown): code is string => typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);

/** The Postgres error code (e.g. '23505') of a failure, looking through Drizzle's DrizzleQueryError wrapper. */
export function pgErrorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 3; depth++) {
    const code = (current as { code?: unknown }).code;
    if (isSqlState(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** What a log may say of a failed query: never its bind values, which hold emails, passwords' hashes, whole payloads. */
export interface DatabaseFailure {
  code?: string;
  message: string;
  constraint?: string;
  table?: string;
  column?: string;
  /** The call sites, without the first line of the stack (Drizzle writes the statement and its values there). */
  at?: string[];
}

type Level = { code?: unknown; message?: unknown; constraint?: unknown; table?: unknown; column?: unknown; cause?: unknown };
const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * The loggable part of a database failure, or undefined when `error` is not one: a Drizzle query error (whose
 * message and `params` carry the bind values) or a PostgreSQL error (whose `detail` repeats the offending row).
 * `databaseFailureOf(duplicateEmail)` -> `{code: '23505', message: 'duplicate key value violates unique constraint "users_email_unique"', ...}`
 */
export function databaseFailureOf(error: unknown): DatabaseFailure | undefined {
  let isQuery = false;
  let source: Level | undefined;
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const level = current as Level;
    if ('query' in level && 'params' in level) isQuery = true;
    else if (isQuery || isSqlState(level.code)) {
      source = level;
      break;
    }
    current = level.cause;
  }
  if (!isQuery && !source) return undefined;
  const code = text(source?.code);
  const message = text(source?.message) ?? 'requête refusée par la base de données';
  return {
    code,
    // Data exceptions (class 22) quote the value they refused: `invalid input syntax for type integer: "…"`.
    message: code?.startsWith('22') ? message.replace(/"[^"]*"/g, '"…"') : message,
    constraint: text(source?.constraint),
    table: text(source?.table),
    column: text(source?.column),
    at: error instanceof Error ? error.stack?.split('\n').filter((line) => line.trimStart().startsWith('at ')) : undefined,
  };
}
