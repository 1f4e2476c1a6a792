import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import type { MailMessage } from '../mail/mailer.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { enqueueMail, MAX_ATTEMPTS } from './queue.ts';
import { createJobWorker, jobCounts, retryDelaySeconds } from './worker.ts';

/** Issue 31: mails are jobs written with their change, delivered by a worker with retries, once across workers. */
describe('the job queue', () => {
  let database: Database;
  // A logger that writes nothing.
  const log = Fastify({ logger: false }).log;

  beforeAll(async () => {
    database = await createTestDatabase('migrated');
  });
  afterAll(() => database.close());

  const mail = (to: string): MailMessage => ({ to, subject: 'Réformes : essai', text: `Bonjour ${to}, le lien secret` });
  const stateOf = async (to: string) =>
    (
      await database.db.execute<{
        attempts: number;
        done: boolean;
        failed: boolean;
        payload: Record<string, unknown>;
        error: string | null;
      }>(
        sql`select attempts, done_at is not null as done, failed_at is not null as failed, payload, last_error as error
            from jobs where payload->>'to' = ${to}`,
      )
    ).rows;
  /** Time passes: every pending job is due now. */
  const dueNow = () => database.db.execute(sql`update jobs set run_at = now() where done_at is null and failed_at is null`);

  it('a mail queued in a transaction rolled back is never sent; one committed is sent once', async () => {
    const sent: string[] = [];
    const worker = createJobWorker({
      db: database.db,
      log,
      handlers: { mail: async (m) => void sent.push(m.to), 'reset-link': async () => {} },
    });
    await database.db
      .transaction(async (tx) => {
        await enqueueMail(tx, mail('annule@reformes.test'));
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await database.db.transaction((tx) => enqueueMail(tx, mail('envoye@reformes.test')));
    worker.nudge();
    await worker.drain();
    expect(sent).toEqual(['envoye@reformes.test']);
    // Delivered: the body (a reset link, a temporary password) is no longer kept.
    expect(await stateOf('envoye@reformes.test')).toEqual([
      { attempts: 1, done: true, failed: false, payload: { to: 'envoye@reformes.test', subject: 'Réformes : essai' }, error: null },
    ]);
  });

  it('retries while the SMTP server is down, and delivers once it is back: nothing lost', async () => {
    let smtpUp = false;
    const sent: string[] = [];
    const worker = createJobWorker({
      db: database.db,
      log,
      handlers: {
        mail: async (m) => {
          if (!smtpUp) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
          sent.push(m.to);
        },
        'reset-link': async () => {},
      },
    });
    await enqueueMail(database.db, mail('panne@reformes.test'));
    for (let attempt = 1; attempt <= 3; attempt++) {
      worker.nudge();
      await worker.drain();
      await dueNow();
    }
    expect(await stateOf('panne@reformes.test')).toMatchObject([
      { attempts: 3, done: false, failed: false, error: 'connect ECONNREFUSED 127.0.0.1:25' },
    ]);
    smtpUp = true;
    worker.nudge();
    await worker.drain();
    expect(sent).toEqual(['panne@reformes.test']);
    expect(await stateOf('panne@reformes.test')).toMatchObject([{ attempts: 4, done: true }]);
  });

  it('waits longer after each failure, up to a minute, and gives up after the last attempt', async () => {
    expect([1, 2, 3, 4, 5, 50].map(retryDelaySeconds)).toEqual([5, 10, 20, 40, 60, 60]);
    // More than a day of an SMTP server down before a mail is given up.
    const total = Array.from({ length: MAX_ATTEMPTS.mail - 1 }, (_, index) => retryDelaySeconds(index + 1)).reduce((a, b) => a + b, 0);
    expect(total / 3600).toBeGreaterThan(24);
    const worker = createJobWorker({
      db: database.db,
      log,
      handlers: {
        mail: async () => {
          throw new Error('boîte refusée');
        },
        'reset-link': async () => {},
      },
    });
    await enqueueMail(database.db, mail('perdu@reformes.test'));
    await database.db.execute(sql`update jobs set attempts = max_attempts - 1 where payload->>'to' = 'perdu@reformes.test'`);
    worker.nudge();
    await worker.drain();
    expect(await stateOf('perdu@reformes.test')).toMatchObject([{ done: false, failed: true, error: 'boîte refusée' }]);
  });

  it('two workers on one database deliver each of 40 mails once', async () => {
    const sent: string[] = [];
    const handlers = {
      mail: async (m: MailMessage) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        sent.push(m.to);
      },
      'reset-link': async () => {},
    };
    const a = createJobWorker({ db: database.db, log, handlers, batch: 3 });
    const b = createJobWorker({ db: database.db, log, handlers, batch: 3 });
    const recipients = Array.from({ length: 40 }, (_, index) => `lot${index}@reformes.test`);
    for (const to of recipients) await enqueueMail(database.db, mail(to));
    a.nudge();
    b.nudge();
    await Promise.all([a.drain(), b.drain()]);
    expect(sent.sort()).toEqual(recipients.sort());
  });
});

describe('the job queue in the metrics', () => {
  it('counts the jobs waiting and failed, by kind', async () => {
    const database = await createTestDatabase('migrated');
    try {
      await enqueueMail(database.db, { to: 'a@reformes.test', subject: 's', text: 't' });
      await enqueueMail(database.db, { to: 'b@reformes.test', subject: 's', text: 't' });
      await database.db.execute(sql`update jobs set failed_at = now() where payload->>'to' = 'b@reformes.test'`);
      const counts = await jobCounts(database.db);
      expect(counts.sort((x, y) => x.labels.state.localeCompare(y.labels.state))).toEqual([
        { labels: { kind: 'mail', state: 'failed' }, value: 1 },
        { labels: { kind: 'mail', state: 'pending' }, value: 1 },
      ]);
    } finally {
      await database.close();
    }
  });
});
