import type { Database } from '../../db/client.ts';

/** How long readiness waits for the database (a free pool client, then `select 1`) before answering 503. */
export const READY_TIMEOUT_MS = 2_000;

/** `select 1` through the pool, or an error after `timeoutMs` (the query, if queued, still runs later). */
export async function pingDatabase(database: Pick<Database, 'pool'>, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`pas de réponse de la base en ${timeoutMs} ms`)), timeoutMs);
  });
  const query = database.pool.query('select 1');
  // A late failure after the timeout won: nobody awaits the query any more.
  query.catch(() => undefined);
  try {
    await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * What the health routes ask: the database's engine, whether it answers in time, and whether the instance is
 * draining (a stop has begun: readiness answers 503 so that load balancers stop sending it requests).
 */
export function createHealthService(database: Database, readyTimeoutMs = READY_TIMEOUT_MS) {
  let draining = false;
  return {
    kind: database.kind,
    ping: () => pingDatabase(database, readyTimeoutMs),
    isDraining: () => draining,
    drain: () => {
      draining = true;
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
