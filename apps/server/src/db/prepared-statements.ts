import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Statement texts given a name, per process: the first ones met, which are the frequent ones (a list, the guard). */
export const NAMED_STATEMENTS_MAX = 300;

type QueryConfig = { text?: unknown; name?: unknown; values?: unknown };

/**
 * Makes every parameterised statement a named prepared statement, named after its text, on each connection of
 * `pool`: PostgreSQL then parses each statement once per connection and keeps its plan (custom plans for the first
 * five runs, then a generic plan when it costs no more), instead of parsing and planning it on every request. A
 * reform list's page planned in 1.2 ms and ran in 1.2 ms (docs/performance.md): planning was half of its database
 * time. Drizzle sends unnamed statements unless a query is `.prepare()`d by hand, which our dynamic queries are not.
 *
 * Only statements with parameters are named: those already use the extended protocol, so nothing else changes for
 * them (one statement per text, no multi-statement scripts). At most `max` distinct texts get a name, so texts that
 * vary without end (a list of n ids gives n parameters) cannot fill each connection's memory on either side.
 */
export function nameStatements(pool: pg.Pool, max = NAMED_STATEMENTS_MAX): void {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    const known = names.get(text);
    if (known !== undefined || names.size >= max) return known;
    const name = `r${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    names.set(text, name);
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query as (...args: unknown[]) => unknown;
    client.query = function (this: pg.PoolClient, config: unknown, values?: unknown, callback?: unknown) {
      if (config !== null && typeof config === 'object' && !('submit' in config)) {
        const { text, name, values: own } = config as QueryConfig;
        const parameters = values ?? own;
        // '' is PostgreSQL's unnamed statement, what a Drizzle query `.prepare('')`d once asks for (db/lists/kept-page.ts).
        if (typeof text === 'string' && (name === undefined || name === '') && Array.isArray(parameters) && parameters.length > 0) {
          const named = nameOf(text);
          if (named !== undefined) return query.call(this, { ...config, name: named }, values, callback);
        }
      }
      return query.call(this, config, values, callback);
    } as typeof client.query;
  });
}
