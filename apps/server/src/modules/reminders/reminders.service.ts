import {
  PORTFOLIO_STATUS_VALUES,
  type PortfolioStatus,
  REMINDER_LATEST_LATE,
  REMINDER_LIST_MAX,
  REMINDERS_DAILY_AT,
  type ReminderDigest,
  type ReminderPreferences,
  type ReminderRun,
  type RemindersStatus,
} from '@reformes/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { jobs, reformeProgress, reformes, reminderDeliveries, reminderOptOuts, reminderRuns, structures } from '../../db/schema/index.ts';
import { enqueueMail } from '../../jobs/queue.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { recordAudit } from '../audit/audit.service.ts';
import { portfolioColumns } from '../portfolio/portfolio-status-sql.ts';
import { type PortfolioDigest, portfolioDigestMail, type Recipient, type StructureDigest, structureDigestMail } from './reminder-mails.ts';

/** Recipients read per query: the run never holds more than this many accounts. */
const RECIPIENT_BATCH = 200;
/** Runs (and their deliveries) older than this are deleted by the next run. */
const KEEP_RUNS_DAYS = 90;

/** The Monday (UTC) of the week of `today` (`YYYY-MM-DD`): the key of « at most once a week ». */
export function weekOf(today: string): string {
  const day = new Date(`${today}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}

/** Which role's accounts receive which digest: the role is the first one (spec §6). */
const ROLES_OF: Record<ReminderDigest, string[]> = { structure: ['saisie'], portfolio: ['publication', 'saisie central'] };

type RecipientRow = Recipient & { id: number; structure_id: number; structure: string } & Record<string, unknown>;

/** Thrown inside a delivery's transaction when another run wrote this week's delivery first: nothing is queued. */
class AlreadySent extends Error {}

export interface RemindersOptions {
  db: Db;
  publicUrl: string;
  /** REMINDER_NO_FOLLOW_UP_DAYS. */
  noFollowUpDays: number;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/**
 * The reminders of issue 32. A run mails each digest to the accounts that have not had it this week and did not turn
 * it off; a delivery row, keyed by (user, digest, week), is written in the transaction that queues the mail, so two
 * runs at once (two instances, a click during the scheduled run) share the work and no one gets a digest twice.
 */
export function createRemindersService({ db, publicUrl, noFollowUpDays, log, now = () => new Date() }: RemindersOptions) {
  const p = reformeProgress;

  /** Active accounts of the digest's roles still owed it this week, by structure then id, after `after`. */
  function recipients(digest: ReminderDigest, week: string, after: [number, number]) {
    return db.execute<RecipientRow>(sql`
      select u.id, u.email, u.firstname, u.lastname, u.structure_id, s.sigl || ' (' || s.designation || ')' as structure
      from users u join structures s on s.id = u.structure_id
      where u.is_active and (u.structure_id, u.id) > (${after[0]}, ${after[1]})
        and (select r.name from user_roles ur join roles r on r.id = ur.role_id
             where ur.user_id = u.id order by ur.position, r.id limit 1) in ${ROLES_OF[digest]}
        and not exists (select 1 from ${reminderOptOuts} o where o.user_id = u.id and o.digest = ${digest})
        and not exists (select 1 from ${reminderDeliveries} d where d.user_id = u.id and d.digest = ${digest} and d.week = ${week}::date)
      order by u.structure_id, u.id limit ${RECIPIENT_BATCH}`);
  }

  /** A structure's reforms late, or started, not finished and without follow-up for `noFollowUpDays` days or more. */
  async function structureDigest(structureId: number, structure: string, today: string): Promise<StructureDigest> {
    const { daysWithout } = portfolioColumns(today);
    const rows = await db
      .select({
        id: p.reforme_id,
        libref: reformes.libref,
        status: sql<PortfolioStatus>`${p.status}`,
        days_without_suivi: daysWithout,
        last_suivi_date: p.last_suivi_date,
        total: sql<number>`(count(*) over ())::int`,
      })
      .from(p)
      .innerJoin(reformes, eq(reformes.id, p.reforme_id))
      .where(
        and(
          eq(p.is_active, true),
          eq(p.structure_id, structureId),
          sql`(${p.status} = 'en_retard' or (${p.status} not in ('terminee', 'non_demarree') and ${daysWithout} >= ${noFollowUpDays}))`,
        ),
      )
      .orderBy(p.status_rank, p.date_fin, p.reforme_id)
      .limit(REMINDER_LIST_MAX);
    return { structure, total: rows[0]?.total ?? 0, reformes: rows.map(({ total: _total, ...row }) => row) };
  }

  /** The whole portfolio by status (the trigger-kept counters) and the reforms that became late last. */
  async function portfolioDigest(): Promise<PortfolioDigest> {
    const counted = await db.execute<{ status: PortfolioStatus; total: number }>(
      sql`select status, sum(total)::int as total from portfolio_counts where is_active group by status`,
    );
    const counts = Object.fromEntries(PORTFOLIO_STATUS_VALUES.map((status) => [status, 0])) as PortfolioDigest['counts'];
    for (const row of counted.rows) counts[row.status] = row.total;
    const late = await db
      .select({ id: p.reforme_id, libref: reformes.libref, structure: structures.sigl, late_since: sql<string>`(${p.date_fin} + 1)::text` })
      .from(p)
      .innerJoin(reformes, eq(reformes.id, p.reforme_id))
      .leftJoin(structures, eq(structures.id, p.structure_id))
      .where(and(eq(p.is_active, true), eq(p.status_rank, PORTFOLIO_STATUS_VALUES.indexOf('en_retard'))))
      .orderBy(desc(p.date_fin), desc(p.reforme_id))
      .limit(REMINDER_LATEST_LATE);
    return { counts, late };
  }

  /** Queues the mail and writes its delivery, or nothing when another run wrote it first. */
  async function deliver(userId: number, digest: ReminderDigest, week: string, runId: number, mail: MailMessage): Promise<boolean> {
    try {
      await db.transaction(async (tx) => {
        const jobId = await enqueueMail(tx, mail);
        const kept = await tx
          .insert(reminderDeliveries)
          .values({ user_id: userId, digest, week, run_id: runId, job_id: jobId })
          .onConflictDoNothing()
          .returning({ user_id: reminderDeliveries.user_id });
        if (kept.length === 0) throw new AlreadySent();
      });
      return true;
    } catch (error) {
      if (error instanceof AlreadySent) return false;
      throw error;
    }
  }

  /** Every recipient of a digest, batch after batch; `mailOf` answers its mail, or nothing to send. */
  async function sendAll(
    digest: ReminderDigest,
    week: string,
    runId: number,
    mailOf: (recipient: RecipientRow) => Promise<MailMessage | undefined>,
  ) {
    let mails = 0;
    let errors = 0;
    let after: [number, number] = [0, 0];
    for (;;) {
      const { rows } = await recipients(digest, week, after);
      for (const recipient of rows) {
        try {
          const mail = await mailOf(recipient);
          if (mail && (await deliver(recipient.id, digest, week, runId, mail))) mails += 1;
        } catch (error) {
          errors += 1;
          log.error({ err: error, user: recipient.id, digest }, 'rappel non mis en file : nouvel essai au prochain envoi');
        }
      }
      if (rows.length < RECIPIENT_BATCH) return { mails, errors };
      const last = rows[rows.length - 1];
      after = [last.structure_id, last.id];
    }
  }

  /** The run and what became of its mails: left (or purged since, after a week), waiting, failed for good. */
  async function report(where: ReturnType<typeof eq> | undefined): Promise<ReminderRun | null> {
    const d = reminderDeliveries;
    const [run] = await db
      .select({
        id: reminderRuns.id,
        trigger: reminderRuns.trigger,
        started_at: reminderRuns.started_at,
        finished_at: reminderRuns.finished_at,
        mails: reminderRuns.mails,
        errors: reminderRuns.errors,
        delivered: sql<number>`(count(${d.job_id}) filter (where ${jobs.id} is null or ${jobs.done_at} is not null))::int`,
        waiting: sql<number>`(count(${jobs.id}) filter (where ${jobs.done_at} is null and ${jobs.failed_at} is null))::int`,
        failed: sql<number>`(count(${jobs.id}) filter (where ${jobs.failed_at} is not null))::int`,
      })
      .from(reminderRuns)
      .leftJoin(d, eq(d.run_id, reminderRuns.id))
      .leftJoin(jobs, eq(jobs.id, d.job_id))
      .where(where)
      .groupBy(reminderRuns.id)
      .orderBy(desc(reminderRuns.id))
      .limit(1);
    return run ? { ...run, started_at: run.started_at.toISOString(), finished_at: run.finished_at?.toISOString() ?? null } : null;
  }

  return {
    /**
     * One run: the structure digests, then the portfolio digests, each to whoever is owed it this week. Safe to run
     * again or at once elsewhere (the delivery key); a digest that fails is counted and tried at the next run.
     */
    async run(trigger: 'schedule' | 'manual'): Promise<ReminderRun> {
      const today = now().toISOString().slice(0, 10);
      const week = weekOf(today);
      await db.execute(sql`select portfolio_refresh_due(${today}::date)`);
      await db.delete(reminderRuns).where(sql`${reminderRuns.started_at} < now() - make_interval(days => ${KEEP_RUNS_DAYS})`);
      const [{ id }] = await db.insert(reminderRuns).values({ trigger }).returning({ id: reminderRuns.id });

      // Recipients come by structure: one structure's digest at a time is kept.
      let current: { structureId: number; digest: StructureDigest } | undefined;
      const structure = await sendAll('structure', week, id, async (recipient) => {
        if (current?.structureId !== recipient.structure_id) {
          current = {
            structureId: recipient.structure_id,
            digest: await structureDigest(recipient.structure_id, recipient.structure, today),
          };
        }
        return current.digest.total > 0 ? structureDigestMail(recipient, current.digest, noFollowUpDays, { publicUrl }) : undefined;
      });
      let portfolio: PortfolioDigest | undefined;
      const weekly = await sendAll('portfolio', week, id, async (recipient) => {
        portfolio ??= await portfolioDigest();
        return portfolioDigestMail(recipient, portfolio, { publicUrl });
      });

      const mails = structure.mails + weekly.mails;
      const errors = structure.errors + weekly.errors;
      await db.transaction(async (tx) => {
        await tx.update(reminderRuns).set({ finished_at: sql`now()`, mails, errors }).where(eq(reminderRuns.id, id));
        // Sent from « Rappels » by someone: the journal says who, and how many mails it queued.
        if (trigger === 'manual') await recordAudit(tx, { action: 'reminders.run', details: { run: id, mails, errors } });
      });
      return (await report(eq(reminderRuns.id, id))) as ReminderRun;
    },

    /** What « Rappels » shows: the schedule, the threshold and the last run. */
    async status(): Promise<RemindersStatus> {
      return { daily_at: REMINDERS_DAILY_AT, no_follow_up_days: noFollowUpDays, last_run: await report(undefined) };
    },

    async preferences(userId: number): Promise<ReminderPreferences> {
      const off = new Set(
        (await db.select({ digest: reminderOptOuts.digest }).from(reminderOptOuts).where(eq(reminderOptOuts.user_id, userId))).map(
          (row) => row.digest,
        ),
      );
      return { structure_digest: !off.has('structure'), portfolio_digest: !off.has('portfolio') };
    },

    async savePreferences(userId: number, choice: ReminderPreferences): Promise<ReminderPreferences> {
      const off: ReminderDigest[] = [];
      if (!choice.structure_digest) off.push('structure');
      if (!choice.portfolio_digest) off.push('portfolio');
      await db.transaction(async (tx) => {
        await tx.delete(reminderOptOuts).where(eq(reminderOptOuts.user_id, userId));
        if (off.length > 0) await tx.insert(reminderOptOuts).values(off.map((digest) => ({ user_id: userId, digest })));
      });
      return choice;
    },
  };
}

export type RemindersService = ReturnType<typeof createRemindersService>;
