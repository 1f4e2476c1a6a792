import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, buildApp } from '../app.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { dailyAt, everyHours, queueDueSlots, type Schedule } from './schedule.ts';

describe('the periods of a schedule', () => {
  it('every N hours from midnight UTC', () => {
    expect(everyHours(6)(new Date('2026-11-26T13:45:10Z')).toISOString()).toBe('2026-11-26T12:00:00.000Z');
    expect(everyHours(1)(new Date('2026-11-26T13:45:10Z')).toISOString()).toBe('2026-11-26T13:00:00.000Z');
  });

  it("once a day at HH:MM, the server's time: yesterday's until today's has come", () => {
    const slot = dailyAt('02:30');
    const at = (hours: number, minutes: number) => new Date(2026, 10, 26, hours, minutes);
    expect(slot(at(1, 0))).toEqual(new Date(2026, 10, 25, 2, 30));
    expect(slot(at(2, 30))).toEqual(new Date(2026, 10, 26, 2, 30));
    expect(slot(at(23, 59))).toEqual(new Date(2026, 10, 26, 2, 30));
  });
});

/**
 * Issue 31, item 2: the purge of unclaimed uploads, the audit retention and the daily backup run once across
 * instances: each instance queues the current period's job, the database keeps one.
 */
describe('scheduled jobs on one database, several instances', () => {
  let a: TestApp;
  let b: App;
  let otherDir: string;
  const jobsOf = async (kind: string) =>
    (
      await a.database.db.execute<{ slot: string; done: boolean; failed: boolean; error: string | null }>(sql`
        select payload->>'slot' as slot, done_at is not null as done, failed_at is not null as failed, last_error as error
        from jobs where kind = ${kind} order by id`)
    ).rows;

  beforeAll(async () => {
    a = await createTestApp({ BACKUP_DAILY_AT: '00:00' });
    otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-scheduled-'));
    b = await buildApp({ config: { ...a.config, backupDir: path.join(otherDir, 'backups') }, database: a.database, logger: false });
    await b.ready();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    fs.rmSync(otherDir, { recursive: true, force: true });
  });

  it('queues one job per kind and period, however many instances ask at once', async () => {
    const schedules: Schedule[] = [
      { kind: 'purge-uploads', slotOf: everyHours(1) },
      { kind: 'audit-retention', slotOf: everyHours(6) },
    ];
    const now = new Date('2030-01-01T10:20:00Z');
    const queued = await Promise.all(Array.from({ length: 6 }, () => queueDueSlots(a.database.db, schedules, now)));
    expect(queued.reduce((sum, count) => sum + count, 0)).toBe(2);
    expect(await queueDueSlots(a.database.db, schedules, new Date('2030-01-01T10:59:00Z'))).toBe(0);
    // The next hour is another period for the purge, the same for the 6-hour retention.
    expect(await queueDueSlots(a.database.db, schedules, new Date('2030-01-01T11:00:00Z'))).toBe(1);
    expect((await jobsOf('purge-uploads')).map((job) => job.slot)).toEqual(['2030-01-01T10:00:00.000Z', '2030-01-01T11:00:00.000Z']);
    expect((await jobsOf('audit-retention')).map((job) => job.slot)).toEqual(['2030-01-01T06:00:00.000Z']);
    await a.database.db.execute(sql`delete from jobs`);
  });

  it('two listening instances make one daily backup, one purge and one retention run between them', async () => {
    await Promise.all([a.app.listen({ port: 0, host: '127.0.0.1' }), b.listen({ port: 0, host: '127.0.0.1' })]);
    await vi.waitFor(
      async () => {
        for (const kind of ['purge-uploads', 'audit-retention', 'backup']) {
          const jobs = await jobsOf(kind);
          expect(jobs, kind).toHaveLength(1);
          expect(jobs[0], kind).toMatchObject({ done: true, failed: false });
        }
      },
      { timeout: 30_000, interval: 200 },
    );
    const made = await a.database.db.execute<{ type: string }>(sql`select type from backups order by id`);
    expect(made.rows.map((row) => row.type).sort()).toEqual(['doc', a.database.kind].sort());
    const audited = await a.database.db.execute<{ total: number }>(
      sql`select count(*)::int as total from audit_log where action = 'backup.create'`,
    );
    expect(audited.rows[0].total).toBe(1);
  }, 60_000);
});
