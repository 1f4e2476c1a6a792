import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { isJobKind, type JobKind, type JobPayloads, jobPayloadSchemas, refusedFields } from '../db/job-payloads.ts';

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
  /** LEASE_SECONDS, shorter in tests. */
  leaseSeconds?: number;
}

/**
 * How long a claimed job is held before another worker may take it (its worker died). Every external call of a job
 * gives up well before (SMTP: mail/mailer.ts, S3: storage/s3-store.ts, pg_dump: backup-files.ts), so that an attempt
 * never outlives it (issue 40, item 13).
 */
export const LEASE_SECONDS = 300;
/** The longest a live worker keeps renewing the lease of one running job. */
const MAX_HOLD_SECONDS = 3_600;
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

/** French, for the admin's screen "Courriels et tâches". */
export const JOB_ERRORS = {
  invalid: (fields: string) => `Contenu de la tâche invalide (${fields}) : elle n'est pas exécutée.`,
  secretExpired: 'Le secret de ce courriel (lien ou mot de passe temporaire) a expiré avant son envoi : son contenu est effacé.',
};

/** What a mail failed for good keeps, as a delivered one: its address and subject, when they are text. */
function addressAndSubjectOf(payload: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  if (typeof payload.to === 'string') kept.to = payload.to.slice(0, 254);
  if (typeof payload.subject === 'string') kept.subject = payload.subject.slice(0, 998);
  return kept;
}

/**
 * What a job keeps once failed for good: a mail that carries a secret, or that is not a mail of ours, loses its body
 * (issue 40, item 12); any other mail keeps it, for an admin to send it again ("Relancer").
 */
function keptOnFailure(job: Claimed, valid: boolean): Record<string, unknown> {
  if (job.kind !== 'mail' || (valid && job.payload.secretUntil === undefined)) return job.payload;
  return addressAndSubjectOf(job.payload);
}

type Claimed = {
  id: number;
  kind: string;
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
export function createJobWorker({ db, handlers, log, pollMs = 1_000, batch = 10, leaseSeconds = LEASE_SECONDS }: WorkerOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = true;
  let again = false;
  /** A job was queued here since the last pass: `drain` must look. */
  let dirty = false;

  async function claim(): Promise<Claimed[]> {
    const result = await db.execute<Claimed>(sql`
      update jobs set attempts = attempts + 1, locked_until = now() + make_interval(secs => ${leaseSeconds})
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
      await failForGood(job, message, true);
      return;
    }
    log.warn({ err: error, job: job.id, kind: job.kind, attempts: job.attempts }, 'tâche en échec : nouvel essai plus tard');
    await db.execute(sql`
      update jobs set run_at = now() + make_interval(secs => ${retryDelaySeconds(job.attempts)}), locked_until = null,
        last_error = ${message} where id = ${job.id}`);
  }

  /** No more attempts: failed, kept for an admin, its body erased when it is a mail with a secret or a forged one. */
  async function failForGood(job: Claimed, message: string, valid: boolean) {
    await db.execute(sql`
      update jobs set failed_at = now(), locked_until = null, last_error = ${message},
        payload = ${JSON.stringify(keptOnFailure(job, valid))}::jsonb where id = ${job.id}`);
  }

  /**
   * The payload its handler may see, or undefined when the job was failed here: a payload its kind's schema refuses (a
   * forged or restored row: never retried), a mail whose secret expired while it waited (issue 40, items 3 and 12).
   */
  async function checkedPayload(job: Claimed): Promise<unknown> {
    if (!isJobKind(job.kind)) return job.payload;
    const parsed = jobPayloadSchemas[job.kind].safeParse(job.payload);
    if (!parsed.success) {
      log.error({ job: job.id, kind: job.kind }, 'contenu de tâche invalide : tâche mise en échec');
      await failForGood(job, JOB_ERRORS.invalid(refusedFields(parsed.error)), false);
      return undefined;
    }
    if (job.kind === 'mail') {
      const { secretUntil, ...message } = parsed.data as JobPayloads['mail'];
      if (secretUntil !== undefined && Date.parse(secretUntil) <= Date.now()) {
        await failForGood(job, JOB_ERRORS.secretExpired, true);
        return undefined;
      }
      return message;
    }
    return parsed.data;
  }

  /** Hourly: done jobs past a week go; waiting mails whose secret expired are failed, their body erased. */
  async function purge() {
    await db.execute(sql`delete from jobs where done_at < now() - make_interval(days => ${KEEP_DONE_DAYS})`);
    // `secretUntil` is an ISO instant (its schema): compared as text, a forged value cannot break the query.
    await db.execute(sql`
      update jobs set failed_at = now(), locked_until = null, last_error = ${JOB_ERRORS.secretExpired},
        payload = jsonb_strip_nulls(jsonb_build_object(
          'to', case when jsonb_typeof(payload->'to') = 'string' then left(payload->>'to', 254) end,
          'subject', case when jsonb_typeof(payload->'subject') = 'string' then left(payload->>'subject', 998) end))
      where kind = 'mail' and done_at is null and failed_at is null and (locked_until is null or locked_until < now())
        and payload->>'secretUntil' <= ${new Date().toISOString()}`);
  }

  /**
   * Extends the job's lease when this worker still holds it (no other claim since: a claim counts an attempt), so that
   * no other worker takes it while it runs. Answers whether it is still this worker's.
   */
  async function renewLease(job: Claimed): Promise<boolean> {
    const result = await db.execute(sql`
      update jobs set locked_until = now() + make_interval(secs => ${leaseSeconds})
      where id = ${job.id} and attempts = ${job.attempts} and done_at is null and failed_at is null`);
    return (result.rowCount ?? 0) > 0;
  }

  /**
   * Renews the lease of a running job every third of it (a backup's upload may take longer than one lease), for at
   * most MAX_HOLD_SECONDS: a handler stuck past that in a live process is taken by another worker. Answers the stop.
   */
  function holdWhileRunning(job: Claimed): () => void {
    const until = Date.now() + MAX_HOLD_SECONDS * 1000;
    const timer = setInterval(
      () => {
        if (Date.now() > until) return clearInterval(timer);
        renewLease(job).catch((error: unknown) => log.warn({ err: error, job: job.id }, 'bail de la tâche non renouvelé'));
      },
      (leaseSeconds * 1000) / 3,
    );
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Claims and runs due jobs until none is left; answers how many ran. */
  let purgedAt = 0;
  async function runDue(): Promise<number> {
    let done = 0;
    if (Date.now() - purgedAt > PURGE_EVERY_MS) {
      purgedAt = Date.now();
      await purge();
    }
    for (;;) {
      const claimed = await claim();
      if (claimed.length === 0) return done;
      for (const job of claimed) {
        // The batch's later jobs waited for the earlier ones: one whose lease ran out may be another worker's now.
        if (!(await renewLease(job))) continue;
        const payload = await checkedPayload(job);
        if (payload === undefined) continue;
        const handler = handlers[job.kind as JobKind] as ((payload: unknown) => Promise<void>) | undefined;
        const heartbeat = holdWhileRunning(job);
        const error = await (handler ? handler(payload) : Promise.reject(new Error(`tâche inconnue : ${job.kind}`)))
          .then(
            () => undefined,
            (failure: unknown) => failure ?? new Error('échec'),
          )
          .finally(heartbeat);
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
