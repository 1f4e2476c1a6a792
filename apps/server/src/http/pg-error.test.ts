import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseFailureOf, pgErrorCode } from './pg-error.ts';

/** What node-postgres throws: PostgreSQL's fields, `detail` repeating the refused values. */
function pgError(fields: { code: string; message: string; detail?: string; constraint?: string; table?: string; column?: string }) {
  return Object.assign(new Error(fields.message), { severity: 'ERROR', ...fields });
}

const EMAIL = 'agent.secret@reformes.test';
const insert = 'insert into "users" ("email", "lastname") values ($1, $2)';

describe('databaseFailureOf', () => {
  it('keeps the SQL state, the message and the constraint of a failed query, never its bind values nor the detail', () => {
    const cause = pgError({
      code: '23505',
      message: 'duplicate key value violates unique constraint "users_email_unique"',
      detail: `Key (email)=(${EMAIL}) already exists.`,
      constraint: 'users_email_unique',
      table: 'users',
    });
    const failure = databaseFailureOf(new DrizzleQueryError(insert, [EMAIL, 'Secretnom'], cause));
    expect(failure).toMatchObject({
      code: '23505',
      message: 'duplicate key value violates unique constraint "users_email_unique"',
      constraint: 'users_email_unique',
      table: 'users',
    });
    expect(failure?.at?.length).toBeGreaterThan(0);
    expect(JSON.stringify(failure)).not.toMatch(/agent\.secret|Secretnom|Key \(email\)/);
  });

  it('masks the quoted value of a data exception (class 22)', () => {
    const cause = pgError({ code: '22P02', message: `invalid input syntax for type integer: "${EMAIL}"` });
    const failure = databaseFailureOf(new DrizzleQueryError('select $1::int', [EMAIL], cause));
    expect(failure?.message).toBe('invalid input syntax for type integer: "…"');
    expect(JSON.stringify(failure)).not.toContain(EMAIL);
  });

  it('describes a query that failed without reaching PostgreSQL by its cause only', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const failure = databaseFailureOf(new DrizzleQueryError(insert, [EMAIL, 'Secretnom'], refused));
    expect(failure).toMatchObject({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' });
    expect(JSON.stringify(failure)).not.toContain(EMAIL);
    expect(databaseFailureOf(new DrizzleQueryError(insert, [EMAIL], undefined))?.message).toBe('requête refusée par la base de données');
  });

  it('reads a PostgreSQL error thrown without Drizzle, and leaves any other error alone', () => {
    expect(databaseFailureOf(pgError({ code: '57014', message: 'canceling statement due to statement timeout' }))).toMatchObject({
      code: '57014',
      message: 'canceling statement due to statement timeout',
    });
    expect(databaseFailureOf(new Error('autre chose'))).toBeUndefined();
    expect(databaseFailureOf(Object.assign(new Error('fichier absent'), { code: 'ENOENT' }))).toBeUndefined();
    expect(pgErrorCode(new DrizzleQueryError(insert, [], pgError({ code: '23514', message: 'check' })))).toBe('23514');
  });
});
