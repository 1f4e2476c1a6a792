import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { JobKind, JobPayloads } from './queue.ts';

export type JobHandlers = { [K in JobKind]: (payload: JobPayloads[K]) => Promise<void> };

export interface WorkerOptions {
  db: Db;
  /** A job of a kind without a handler here fails (`tâche inconnue`) and is retried, maybe by an instance that knows it. */
  handlers: Partial<JobHandlers>;
  log: FastifyBaseLogger;
  /** How often an idle worker looks for due jobs (the instance that queued one nudges its own worker at once). */
  pollMs?: number;
  /** Rows claimed at once. */
  batch?: number;
}

/** How long a claimed job is held before another worker may take it (its worker died). */
const LEASE_SECONDS = 300;
/** Done jobs are kept a week (what left, when), then deleted; failed ones stay until an admin deals with them. */
const KEEP_DONE_DAYS = 7;
const PURGE_EVERY_MS = 60 * 60 * 1000;

/** Jobs waiting (due or not) and failed, by kind: for the metrics. */
export async function jobCounts(db: Pick<Db, 'execute'>): Promise<Array<{ labels: { kind: string; state: string }; value: number }>> {
  const result = await db.execute<{ kind: string; state: string; total: number }>(sql`
    select kind, case when failed_at is null then 'pending' else 'failed' end as state, count(*)::int as total
    from jobs where done_at is null group by 1, 2`);
  return result.rows.map((row) => ({ labels: { kind: row.kind, state: row.state }, value: row.total }));
}

/**
 * 5 s, 10 s, 20 s, 40 s, then every minute: the delay before the next attempt of a job that failed `attempts` times. A
 * short ceiling, so that a mail leaves within a minute of the SMTP server coming back, whatever the outage lasted.
 */
export const retryDelaySeconds = (attempts: number) => Math.min(5 * 2 ** Math.max(0, attempts - 1), 60);

type Claimed = {
  id: number;
  kind: JobKind;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
};

/**
 * The worker of one instance: claims due jobs with `FOR UPDATE SKIP LOCKED` (so N instances share the queue and do
 * each job once), runs their handler, marks them done, or schedules the next attempt with a growing delay and keeps
 * the error; after the last attempt a job is failed, kept for an admin to see. A handler that succeeded but whose
 * "done" was not written (the process died in between) runs again: a mail may then arrive twice, never zero times.
 */
export function createJobWorker({ db, handlers, log, pollMs = 1_000, batch = 10 }: WorkerOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  let again = false;
  /** A job was queued here since the last pass: `drain` must look. */
  let dirty = false;

  async function claim(): Promise<Claimed[]> {
    const result = await db.execute<Claimed>(sql`
      update jobs set attempts = attempts + 1, locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
      where id in (
        select id from jobs
        where done_at is null and failed_at is null and run_at <= now() and (locked_until is null or locked_until < now())
        order by run_at, id limit ${batch}
        for update skip locked)
      returning id::int as id, kind, payload, attempts, max_attempts`);
    return result.rows;
  }

  async function settle(job: Claimed, error: unknown) {
    if (error === undefined) {
      // A delivered mail keeps its address and subject: its body may hold a reset link or a temporary password.
      const kept = job.kind === 'mail' ? { to: job.payload.to, subject: job.payload.subject } : job.payload;
      await db.execute(
        sql`update jobs set done_at = now(), locked_until = null, last_error = null, payload = ${JSON.stringify(kept)}::jsonb where id = ${job.id}`,
      );
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    if (job.attempts >= job.max_attempts) {
      log.error({ err: error, job: job.id, kind: job.kind }, 'tâche abandonnée après sa dernière tentative');
      await db.execute(sql`update jobs set failed_at = now(), locked_until = null, last_error = ${message} where id = ${job.id}`);
      return;
    }
    log.warn({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, 'tâche en échec : nouvel essai plus tard');
    await db.execute(sql`
      update jobs set run_at = now() + make_interval(secs => ${retryDelaySeconds(job.attempts)}), locked_until = null,
        last_error = ${message} where id = ${job.id}`);
  }

  /** Claims and runs due jobs until none is left; answers how many ran. */
  let purgedAt = 0;
  async function runDue(): Promise<number> {
    let done = 0;
    if (Date.now() - purgedAt > PURGE_EVERY_MS) {
      purgedAt = Date.now();
      await db.execute(sql`delete from jobs where done_at < now() - make_interval(days => ${KEEP_DONE_DAYS})`);
    }
    for (;;) {
      const claimed = await claim();
      if (claimed.length === 0) return done;
      for (const job of claimed) {
        const handler = handlers[job.kind] as ((payload: unknown) => Promise<void>) | undefined;
        const error = await (handler ? handler(job.payload) : Promise.reject(new Error(`tâche inconnue : ${job.kind}`))).then(
          () => undefined,
          (failure: unknown) => failure ?? new Error('échec'),
        );
        await settle(job, error);
        done += 1;
      }
    }
  }

  /** One pass at a time; a nudge during a pass makes another pass follow it. */
  function pass(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    dirty = false;
    running = runDue()
      .catch((error) => {
        log.error({ err: error }, 'file de tâches illisible : nouvel essai au prochain passage');
        return 0;
      })
      .finally(() => {
        running = undefined;
        if (again && !stopped) {
          again = false;
          void pass();
        }
      });
    return running;
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      void pass().finally(schedule);
    }, pollMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    /** A job was just queued here: look now rather than at the next poll. */
    nudge() {
      dirty = true;
      if (!stopped) void pass();
    },
    /** Waits for the pass in progress and, when a job was queued here since, runs the due jobs now (tests). */
    async drain(): Promise<void> {
      while (running) await running;
      if (dirty) await pass();
    },
    /** Stops polling and waits for the pass in progress (graceful shutdown). */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      while (running) await running;
    },
  };
}

export type JobWorker = ReturnType<typeof createJobWorker>;
