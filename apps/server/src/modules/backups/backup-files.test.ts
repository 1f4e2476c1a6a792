import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/client.ts';
import { connectionOf, dumpDatabase, restorePostgres } from './backup-files.ts';

/**
 * pg_dump and pg_restore as the backup runs them (issue 40, items 1, 11 and 13), played by a script on PATH that
 * writes down what it was given (its command line as /proc shows it to any local user, its PGPASSWORD), then, as
 * FAKE_PG tells, succeeds, writes 50 MB of errors, or hangs.
 */
const SCRIPT = `#!/bin/sh
tr '\\0' '\\n' < /proc/$$/cmdline > "$FAKE_PG_DIR/cmdline"
printf '%s' "$PGPASSWORD" > "$FAKE_PG_DIR/password"
printf '%s' "$$" > "$FAKE_PG_DIR/pid"
case "$FAKE_PG" in
  noisy) head -c 50000000 /dev/zero | tr '\\0' 'e' >&2; exit 1 ;;
  hang) exec sleep 30 ;;
  *) echo dump ;;
esac
`;

const URL_WITH_PASSWORD = 'postgres://reformes:s3cr%40t-de-passe@127.0.0.1:5432/reformes?sslmode=disable';
const postgres = { kind: 'postgresql', url: URL_WITH_PASSWORD } as Database;

describe('pg_dump and pg_restore as the backups run them (issue 40)', () => {
  let dir: string;
  const output = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-pg-'));
    for (const command of ['pg_dump', 'pg_restore']) fs.writeFileSync(path.join(dir, command), SCRIPT, { mode: 0o755 });
  });
  afterEach(() => vi.unstubAllEnvs());
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const fake = (mode: string) => {
    vi.stubEnv('PATH', `${dir}:${process.env.PATH}`);
    vi.stubEnv('FAKE_PG_DIR', dir);
    vi.stubEnv('FAKE_PG', mode);
  };

  it('gives the password through the child environment only, never on its command line', async () => {
    fake('ok');
    const file = path.join(dir, 'out', 'base.dump');
    await dumpDatabase(postgres, file);
    expect(fs.readFileSync(file, 'utf8')).toBe('dump\n');
    expect(output('cmdline')).not.toContain('s3cr');
    expect(output('cmdline')).toContain('--dbname=postgres://reformes@127.0.0.1:5432/reformes?sslmode=disable');
    expect(output('password')).toBe('s3cr@t-de-passe');

    await restorePostgres(file, URL_WITH_PASSWORD, false);
    expect(output('cmdline')).not.toContain('s3cr');
    expect(output('password')).toBe('s3cr@t-de-passe');
  });

  it('takes the password out of every form of connection string', () => {
    const password = (url: string) => connectionOf(url).env.PGPASSWORD;
    expect(connectionOf('postgresql://u:p%20w@h/db?password=other&sslmode=require')).toMatchObject({
      dbname: 'postgresql://u@h/db?sslmode=require',
      env: { PGPASSWORD: 'p w' },
    });
    expect(connectionOf('postgres://u@h/db?password=q%26r')).toMatchObject({ dbname: 'postgres://u@h/db', env: { PGPASSWORD: 'q&r' } });
    expect(connectionOf("host=h password='a b\\'c' dbname=db")).toMatchObject({ dbname: 'host=h dbname=db', env: { PGPASSWORD: "a b'c" } });
    expect(connectionOf('host=h password=secret')).toMatchObject({ dbname: 'host=h', env: { PGPASSWORD: 'secret' } });
    expect(password('postgres://u@h/db')).toBe(process.env.PGPASSWORD);
  });

  it('keeps at most 16 kB of a child error output, its end', async () => {
    fake('noisy');
    const error = await restorePostgres(path.join(dir, 'absent.dump'), URL_WITH_PASSWORD, false).catch((caught: Error) => caught);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^pg_restore a échoué \(code 1\) : …e+$/);
    expect((error as Error).message.length).toBeLessThan(16 * 1024 + 100);
  });

  it('kills a pg_dump that outlives its time limit, with a French message', async () => {
    fake('hang');
    const file = path.join(dir, 'out', 'hung.dump');
    const started = performance.now();
    const error = await dumpDatabase(postgres, file, undefined, { timeoutMs: 1000 }).catch((caught: Error) => caught);
    expect((error as Error).message).toBe('pg_dump a dépassé 1 s : il a été arrêté, la sauvegarde est abandonnée.');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(() => process.kill(Number(output('pid')), 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  it('leaves the rows of jobs out of a pg_dump: no mail body, reset link or temporary password (issue 40, item 12)', async () => {
    fake('ok');
    await dumpDatabase(postgres, path.join(dir, 'out', 'sans-taches.dump'));
    expect(output('cmdline').split('\n')).toContain('--exclude-table-data=public.jobs');
  });
});
