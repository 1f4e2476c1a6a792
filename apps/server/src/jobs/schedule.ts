import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { MAX_ATTEMPTS, type ScheduledKind } from './queue.ts';

/** When the period that contains `now` began: its job's `slot`, and the moment it is due. */
export type SlotOf = (now: Date) => Date;

export interface Schedule {
  kind: ScheduledKind;
  slotOf: SlotOf;
}

const HOUR_MS = 3_600_000;

/** Periods of `hours` hours from the epoch: `everyHours(6)` starts one at 00:00, 06:00, 12:00 and 18:00 UTC. */
export const everyHours =
  (hours: number): SlotOf =>
  (now) =>
    new Date(Math.floor(now.getTime() / (hours * HOUR_MS)) * hours * HOUR_MS);

/** Once a day at `HH:MM`, the server's local time (BACKUP_DAILY_AT); before that time, yesterday's is the current one. */
export function dailyAt(time: string): SlotOf {
  const [hours, minutes] = time.split(':').map(Number);
  return (now) => {
    const slot = new Date(now);
    slot.setHours(hours, minutes, 0, 0);
    if (slot > now) slot.setDate(slot.getDate() - 1);
    return slot;
  };
}

/**
 * Queues the job of each schedule's current period, unless any instance did already: the unique index on (kind, slot)
 * (migration 0015) keeps one row whichever instance inserts first, and the queue's workers do it once. An instance that
 * was down at a slot's start queues it late; a period when every instance was down is skipped, not made up twice.
 * Answers how many jobs this call queued.
 */
export async function queueDueSlots(db: Pick<Db, 'execute'>, schedules: Schedule[], now = new Date()): Promise<number> {
  let queued = 0;
  for (const { kind, slotOf } of schedules) {
    const slot = slotOf(now).toISOString();
    const result = await db.execute(sql`
      insert into jobs (kind, payload, run_at, max_attempts)
      values (${kind}, ${JSON.stringify({ slot })}::jsonb, ${slot}::timestamptz, ${MAX_ATTEMPTS[kind]})
      on conflict (kind, (payload->>'slot')) where (payload->>'slot') is not null do nothing`);
    queued += result.rowCount ?? 0;
  }
  return queued;
}

export interface SchedulerOptions {
  db: Pick<Db, 'execute'>;
  schedules: Schedule[];
  log: FastifyBaseLogger;
  /** A job was queued: the worker looks at once. */
  onQueued: () => void;
  /** How often the current slots are looked at: a minute by default. */
  everyMs?: number;
}

/** Every instance looks each minute (and once it listens); the database decides which one queues. */
export function createScheduler({ db, schedules, log, onQueued, everyMs = 60_000 }: SchedulerOptions) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = queueDueSlots(db, schedules)
      .then((queued) => {
        if (queued > 0) onQueued();
      })
      .catch((error) => log.error({ err: error }, 'tâches planifiées non mises en file : nouvel essai dans une minute'))
      .finally(() => {
        running = undefined;
      });
  };
  return {
    start() {
      if (timer || schedules.length === 0) return;
      tick();
      timer = setInterval(tick, everyMs).unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
