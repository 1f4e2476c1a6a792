import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client.ts';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { createTestDatabase } from '../../test/test-database.ts';

const RESET = 'Réformes : réinitialisation de votre mot de passe';
const CREATED = 'Réformes : votre compte a été créé';

/** The statements of migration 0018, run again on rows written as a version before issue 40 wrote them. */
const statements = fs
  .readFileSync(path.join(MIGRATIONS_FOLDER, '0018_mail_secrets.sql'), 'utf8')
  .split('--> statement-breakpoint')
  .map((statement) => statement.trim())
  .filter(Boolean);

describe('migration 0018: mails with a secret queued before issue 40', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase('migrated');
  });
  afterAll(() => database.close());

  const insert = (to: string, subject: string, state: 'pending' | 'failed' | 'done', hoursAgo: number) =>
    database.db.execute(sql`
      insert into jobs (kind, payload, max_attempts, created_at, failed_at, done_at)
      values ('mail', ${JSON.stringify({ to, subject, text: `secret de ${to}` })}::jsonb, 10,
        now() - make_interval(hours => ${hoursAgo}),
        ${state === 'failed' ? sql`now()` : sql`null`}, ${state === 'done' ? sql`now()` : sql`null`})`);
  const payloadOf = async (to: string) =>
    (await database.db.execute<{ payload: Record<string, unknown> }>(sql`select payload from jobs where payload->>'to' = ${to}`)).rows[0]
      .payload;

  it('erases the body of a given-up mail with a secret, dates the secret of a waiting one, leaves other mails', async () => {
    await insert('failed-reset@reformes.test', RESET, 'failed', 5);
    await insert('failed-account@reformes.test', CREATED, 'failed', 100);
    await insert('failed-notice@reformes.test', 'Réformes : réforme transmise', 'failed', 5);
    await insert('waiting-reset@reformes.test', RESET, 'pending', 2);
    await insert('waiting-account@reformes.test', CREATED, 'pending', 1);
    for (const statement of statements) await database.db.execute(sql.raw(statement));
    // Twice: a migration run again changes nothing more.
    for (const statement of statements) await database.db.execute(sql.raw(statement));

    expect(await payloadOf('failed-reset@reformes.test')).toEqual({ to: 'failed-reset@reformes.test', subject: RESET });
    expect(await payloadOf('failed-account@reformes.test')).toEqual({ to: 'failed-account@reformes.test', subject: CREATED });
    expect(await payloadOf('failed-notice@reformes.test')).toMatchObject({ text: 'secret de failed-notice@reformes.test' });
    const reset = await payloadOf('waiting-reset@reformes.test');
    const account = await payloadOf('waiting-account@reformes.test');
    expect(reset.text).toBe('secret de waiting-reset@reformes.test');
    // Queued 2 h ago, a 60-minute link: expired an hour ago. Queued 1 h ago, a 72-hour password: 71 h left.
    const hoursLeft = (value: unknown) => (Date.parse(String(value)) - Date.now()) / 3_600_000;
    expect(hoursLeft(reset.secretUntil)).toBeCloseTo(-1, 1);
    expect(hoursLeft(account.secretUntil)).toBeCloseTo(71, 1);
    expect(String(account.secretUntil)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
