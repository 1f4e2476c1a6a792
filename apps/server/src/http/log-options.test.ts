import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, DEMO_PASSWORD, type TestApp } from '../test/test-app.ts';
import { redactUrl } from './log-options.ts';

describe('redactUrl', () => {
  it('hides the token of the mailed recovery link and credential query parameters, and nothing else', () => {
    expect(redactUrl('/auth/recovery-password/abc-DEF_123')).toBe('/auth/recovery-password/[Redacted]');
    expect(redactUrl('/auth/recovery-password/abc/suite?x=1')).toBe('/auth/recovery-password/[Redacted]/suite?x=1');
    expect(redactUrl('/auth/oidc/callback?code=c0de&state=s7a7e&iss=https%3A%2F%2Fannuaire.test')).toBe(
      '/auth/oidc/callback?code=[Redacted]&state=[Redacted]&iss=https%3A%2F%2Fannuaire.test',
    );
    expect(redactUrl('/reset?token=abc&page=2&code=1234&password=p&refresh_token=r&reset=z&Access_Token=a')).toBe(
      '/reset?token=[Redacted]&page=2&code=[Redacted]&password=[Redacted]&refresh_token=[Redacted]&reset=[Redacted]&Access_Token=[Redacted]',
    );
    expect(redactUrl('/x?%74oken=abc')).toBe('/x?%74oken=[Redacted]');
    expect(redactUrl('/api/v1/reformes?per_page=10&page=1&search=code')).toBe('/api/v1/reformes?per_page=10&page=1&search=code');
    expect(redactUrl('/api/v1/health')).toBe('/api/v1/health');
  });
});

/**
 * The figure of issue 14 "secrets found in logs during the test run": every log line the production logger
 * writes (level trace) while a user signs in, refreshes, asks for and opens a recovery link, resets the password,
 * and while the database refuses rows carrying an email, is searched for every secret that went through.
 */
describe('secrets in the logs', () => {
  const lines: string[] = [];
  const secrets = new Map<string, string>();
  let t: TestApp;

  const remember = (label: string, value: string) => {
    expect(value.length, label).toBeGreaterThan(5);
    secrets.set(label, value);
  };

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'trace' }, { logStream: { write: (line) => lines.push(line) } });
    // A check constraint whose PostgreSQL detail repeats the whole refused row, and a failure that is not the client's.
    await t.database.pool.query(`
      alter table users add constraint journal_piege check (email not like 'journal-%');
      create function panne_simulee() returns trigger language plpgsql as $$
      begin
        if new.email like 'panne-%' then
          raise exception 'panne simulée' using errcode = 'XX000', detail = new.email;
        end if;
        return new;
      end $$;
      create trigger panne_simulee before insert on users for each row execute function panne_simulee();
    `);
  });
  afterAll(() => t.close());

  it('writes no password, token or bind value: secrets found in logs during the test run: 0', async () => {
    const inject = t.app.inject.bind(t.app);
    remember('demo password', DEMO_PASSWORD);
    const wrong = await inject({
      method: 'POST',
      url: '/api/v1/api/login',
      payload: { email: 'saisie@reformes.test', password: 'Mauvais-Mot-De-Passe-42', device: 'web' },
    });
    expect(wrong.statusCode).toBe(401);
    remember('wrong password', 'Mauvais-Mot-De-Passe-42');

    const session = await t.login('saisie@reformes.test');
    remember('access token', session.access_token);
    remember('refresh token', session.refresh_token);
    const refreshed = await inject({ method: 'POST', url: '/api/v1/api/refresh', payload: { refresh_token: session.refresh_token } });
    expect(refreshed.statusCode).toBe(200);
    remember('refreshed access token', refreshed.json().data.access_token);
    remember('refreshed refresh token', refreshed.json().data.refresh_token);
    const me = await inject({ method: 'GET', url: '/api/v1/api/user', headers: bearer(refreshed.json().data.access_token) });
    expect(me.statusCode).toBe(200);

    const forgot = await inject({ method: 'POST', url: '/api/v1/api/forgot-password', payload: { email: 'saisie@reformes.test' } });
    expect(forgot.statusCode).toBe(200);
    const token = /\/auth\/recovery-password\/([\w-]+)/.exec(t.outbox().at(-1) ?? '')?.[1] ?? '';
    remember('reset token', token);
    // Opening the mailed link, and the same token in a query string.
    await inject({ method: 'GET', url: `/auth/recovery-password/${token}` });
    await inject({ method: 'GET', url: `/api/v1/health?token=${token}&code=${token}` });
    const newPassword = 'Nouveau-Secret-Du-Journal-2026!';
    remember('new password', newPassword);
    const reset = await inject({
      method: 'POST',
      url: '/api/v1/api/recovery-password',
      payload: { token, password: newPassword, password_confirmation: newPassword },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    await t.login('saisie@reformes.test', newPassword);

    const admin = bearer((await t.login('admin@reformes.test')).access_token);
    const user = { lastname: 'Nomdujournal', firstname: 'Prenomsecret', address: 'Rue du Journal 77', phone: '0799887766' };
    const common = { ...user, structure_id: 1, roles: ['saisie'], is_signer: '' };
    const refused = await inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin,
      payload: { ...common, email: 'journal-piege@reformes.test' },
    });
    expect(refused.statusCode).toBe(422);
    const broken = await inject({
      method: 'POST',
      url: '/api/v1/users',
      headers: admin,
      payload: { ...common, email: 'panne-piege@reformes.test' },
    });
    expect(broken.statusCode).toBe(500);
    remember('refused email', 'journal-piege@reformes.test');
    remember('failing email', 'panne-piege@reformes.test');
    for (const [field, value] of Object.entries(user)) remember(`bind value ${field}`, value);
    remember('password hash', '$argon2');

    const found = [...secrets].flatMap(([label, secret]) =>
      lines.filter((line) => line.includes(secret)).map((line) => `${label}: ${line}`),
    );
    console.log(`secrets found in logs during the test run: ${found.length} (${lines.length} log lines, ${secrets.size} secrets)`);
    expect(found).toEqual([]);

    // The log saw all of it, redacted: the link, both database failures by their SQL state, the mail.
    const log = lines.join('');
    expect(log).toContain('"url":"/auth/recovery-password/[Redacted]"');
    expect(log).toContain('"url":"/api/v1/health?token=[Redacted]&code=[Redacted]"');
    expect(log).toContain('"code":"23514"');
    expect(log).toContain('new row for relation \\"users\\" violates check constraint \\"journal_piege\\"');
    expect(log).toContain('"code":"XX000"');
    expect(log).toContain('mail written to the outbox');
  });
});
