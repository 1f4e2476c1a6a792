import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client.ts';
import { createMailer, type MailMessage } from '../mail/mailer.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { enqueueMail, MAX_ATTEMPTS } from './queue.ts';
import { createJobWorker, jobCounts, retryDelaySeconds } from './worker.ts';

const mail = (to: string): MailMessage => ({ to, subject: 'Réformes : essai', text: `Bonjour ${to}, le lien secret` });

/** Issue 31: mails are jobs written with their change, delivered by a worker with retries, once across workers. */
describe('the job queue', () => {
  let database: Database;
  // A logger that writes nothing.
  const log = Fastify({ logger: false }).log;

  beforeAll(async () => {
    database = await createTestDatabase('migrated');
  });
  afterAll(() => database.close());

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

  it('delivers each mail once when a batch outlasts the lease, and holds a long job while it runs (issue 40, item 13)', async () => {
    // Each mail takes 0.4 s, a batch of 6 takes 2.4 s, the lease is 1 s: the batch's last mails, and a long one,
    // would be claimed again by the other worker and sent twice if their lease were not renewed.
    const sent: string[] = [];
    const handlers = {
      mail: async (m: MailMessage) => {
        await new Promise((resolve) => setTimeout(resolve, m.to.startsWith('longue') ? 2_500 : 400));
        sent.push(m.to);
      },
      'reset-link': async () => {},
    };
    const a = createJobWorker({ db: database.db, log, handlers, batch: 6, leaseSeconds: 1, pollMs: 100 });
    const b = createJobWorker({ db: database.db, log, handlers, batch: 6, leaseSeconds: 1, pollMs: 100 });
    const recipients = ['longue@reformes.test', ...Array.from({ length: 6 }, (_, index) => `bail${index}@reformes.test`)];
    for (const to of recipients) await enqueueMail(database.db, mail(to));
    a.nudge();
    await new Promise((resolve) => setTimeout(resolve, 50));
    b.start();
    await a.drain();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await b.stop();
    expect(sent.sort()).toEqual(recipients.sort());
  });
});

/** Issue 40, item 3: a row of `jobs` is read through its kind's schema; one that fails it reaches no handler. */
describe('forged job rows', () => {
  let database: Database;
  const log = Fastify({ logger: false }).log;
  beforeAll(async () => {
    database = await createTestDatabase('migrated');
  });
  afterAll(() => database.close());

  it("a row whose payload is not its kind's is failed at once, with a French error, and never reaches its handler", async () => {
    const forged: Array<[string, Record<string, unknown>]> = [
      ['mail', { to: 'a@reformes.test', subject: 's', text: 't', attachments: [{ path: '/etc/passwd' }] }],
      ['mail', { to: 'a@reformes.test', subject: 's', text: 't', from: 'directeur@ministere.test' }],
      ['mail', { to: 'a@reformes.test', subject: 's', text: 't', headers: { 'X-Forged': 'oui' } }],
      ['mail', { to: 'a@reformes.test', subject: 's', text: 't', html: { path: '/etc/passwd' } }],
      ['mail', { to: 'a@reformes.test', subject: 's', text: { href: 'http://127.0.0.1:9/' } }],
      ['mail', { to: ['a@reformes.test', 'b@reformes.test'], subject: 's', text: 't' }],
      ['mail', { to: 'a@reformes.test, b@reformes.test', subject: 's', text: 't' }],
      ['mail', { to: 'a@reformes.test', subject: 's'.repeat(999), text: 't' }],
      ['mail', { to: 'a@reformes.test', subject: 's', text: 't'.repeat(1024 * 1024 + 1) }],
      ['mail', { to: 'a@reformes.test', subject: 's' }],
      ['reset-link', { email: 'a@reformes.test', extra: 1 }],
      ['reset-link', { email: ['a@reformes.test'] }],
      ['purge-uploads', { slot: { path: '/etc/passwd' } }],
    ];
    for (const [kind, payload] of forged)
      await database.db.execute(
        sql`insert into jobs (kind, payload, max_attempts) values (${kind}, ${JSON.stringify(payload)}::jsonb, 10)`,
      );
    await enqueueMail(database.db, mail('valide@reformes.test'));
    const calls: unknown[] = [];
    const record = async (payload: unknown) => void calls.push(payload);
    const worker = createJobWorker({
      db: database.db,
      log,
      handlers: { mail: record, 'reset-link': record, 'purge-uploads': record },
    });
    worker.nudge();
    await worker.drain();
    expect(calls).toEqual([mail('valide@reformes.test')]);
    const rows = (
      await database.db.execute<{ attempts: number; failed: boolean; error: string | null; payload: Record<string, unknown> }>(
        sql`select attempts, failed_at is not null as failed, last_error as error, payload from jobs where done_at is null order by id`,
      )
    ).rows;
    expect(rows).toHaveLength(forged.length);
    for (const row of rows) {
      expect(row).toMatchObject({ attempts: 1, failed: true });
      expect(row.error).toMatch(/^Contenu de la tâche invalide/);
    }
    // A forged mail keeps no more than a delivered one: its address and subject, when they are text.
    expect(rows[0].payload).toEqual({ to: 'a@reformes.test', subject: 's' });
    expect(rows[5].payload).toEqual({ subject: 's' });
  });
});

/** Issue 40, item 12: a mail that carries a secret (a reset link, a temporary password) does not outlive it. */
describe('mails that carry a secret', () => {
  let database: Database;
  const log = Fastify({ logger: false }).log;
  beforeAll(async () => {
    database = await createTestDatabase('migrated');
  });
  afterAll(() => database.close());
  const rowOf = async (to: string) =>
    (
      await database.db.execute<{ failed: boolean; error: string | null; payload: Record<string, unknown> }>(
        sql`select failed_at is not null as failed, last_error as error, payload from jobs where payload->>'to' = ${to}`,
      )
    ).rows[0];

  it('loses its body when it fails for good; a mail without a secret keeps it, to be sent again', async () => {
    const worker = createJobWorker({
      db: database.db,
      log,
      handlers: {
        mail: async () => {
          throw new Error('boîte refusée');
        },
      },
    });
    await enqueueMail(database.db, mail('secret@reformes.test'), { secretUntil: new Date(Date.now() + 3_600_000) });
    await enqueueMail(database.db, mail('avis@reformes.test'));
    await database.db.execute(sql`update jobs set attempts = max_attempts - 1`);
    worker.nudge();
    await worker.drain();
    expect(await rowOf('secret@reformes.test')).toEqual({
      failed: true,
      error: 'boîte refusée',
      payload: { to: 'secret@reformes.test', subject: 'Réformes : essai' },
    });
    expect(await rowOf('avis@reformes.test')).toMatchObject({ failed: true, payload: mail('avis@reformes.test') });
  });

  it("waiting past its secret's expiry, it is failed with its body erased, and never sent", async () => {
    const sent: string[] = [];
    const worker = createJobWorker({ db: database.db, log, handlers: { mail: async (m) => void sent.push(m.to) } });
    await enqueueMail(database.db, mail('expire@reformes.test'), { secretUntil: new Date(Date.now() - 1000) });
    await enqueueMail(database.db, mail('valable@reformes.test'), { secretUntil: new Date(Date.now() + 3_600_000) });
    worker.nudge();
    await worker.drain();
    expect(sent).toEqual(['valable@reformes.test']);
    expect(await rowOf('expire@reformes.test')).toEqual({
      failed: true,
      error: 'Le secret de ce courriel (lien ou mot de passe temporaire) a expiré avant son envoi : son contenu est effacé.',
      payload: { to: 'expire@reformes.test', subject: 'Réformes : essai' },
    });
  });
});

/**
 * Issue 40, item 13: an SMTP server that hangs past the lease cannot make two workers send one mail: the attempt
 * times out (its socket closed) well before the lease ends, and the next attempt delivers it once.
 */
describe('a hung SMTP server', () => {
  let database: Database;
  const log = Fastify({ logger: false }).log;
  beforeAll(async () => {
    database = await createTestDatabase('migrated');
  });
  afterAll(() => database.close());

  /** Answers SMTP; on its first connection it holds the answer to the message's end for `hangMs`, then accepts it if still connected. */
  function fakeSmtp(hangMs: number) {
    let connections = 0;
    const delivered: string[] = [];
    let hung: Promise<void> = Promise.resolve();
    let dataSeen: () => void = () => {};
    const data = new Promise<void>((resolve) => {
      dataSeen = resolve;
    });
    const server = net.createServer((socket) => {
      const first = ++connections === 1;
      let inData = false;
      let buffer = '';
      let message = '';
      socket.on('error', () => {});
      socket.write('220 fake ESMTP\r\n');
      socket.on('data', (chunk) => {
        buffer += chunk.toString('utf8');
        for (let end = buffer.indexOf('\r\n'); end !== -1; end = buffer.indexOf('\r\n')) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (inData) {
            if (line !== '.') {
              message += `${line}\n`;
              continue;
            }
            inData = false;
            const accept = () => {
              if (socket.destroyed || socket.readableEnded) return;
              delivered.push(message);
              socket.write('250 queued\r\n');
            };
            if (first) {
              dataSeen();
              hung = new Promise((resolve) => setTimeout(() => resolve(accept()), hangMs));
            } else accept();
          } else if (/^(EHLO|HELO)/i.test(line)) socket.write('250 fake\r\n');
          else if (/^DATA/i.test(line)) {
            inData = true;
            socket.write('354 go\r\n');
          } else if (/^QUIT/i.test(line)) socket.end('221 bye\r\n');
          else socket.write('250 OK\r\n');
        }
      });
    });
    return {
      listen: () =>
        new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port))),
      delivered,
      data,
      hung: () => hung,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it('delivers the mail once across two workers when an attempt hangs past the lease', async () => {
    const smtp = fakeSmtp(2_500);
    const port = await smtp.listen();
    const outboxDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hung-smtp-'));
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: 'noreply@reformes.test',
        outboxDir,
        log,
        timeouts: { connectionMs: 400, greetingMs: 400, socketMs: 400 },
      });
      const handlers = { mail: (m: MailMessage) => mailer.send(m) };
      const a = createJobWorker({ db: database.db, log, handlers, leaseSeconds: 1 });
      const b = createJobWorker({ db: database.db, log, handlers, leaseSeconds: 1 });
      await enqueueMail(database.db, mail('unefois@reformes.test'));
      a.nudge();
      const first = a.drain();
      await smtp.data;
      // The lease is over: another worker may take the job, due again (its retry delay skipped).
      await new Promise((resolve) => setTimeout(resolve, 1_300));
      await database.db.execute(sql`update jobs set run_at = now() where done_at is null`);
      b.nudge();
      await b.drain();
      await first;
      await smtp.hung();
      expect(smtp.delivered).toHaveLength(1);
      const [row] = (await database.db.execute<{ done: boolean }>(sql`select done_at is not null as done from jobs`)).rows;
      expect(row.done).toBe(true);
    } finally {
      await smtp.close();
      fs.rmSync(outboxDir, { recursive: true, force: true });
    }
  }, 15_000);
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
