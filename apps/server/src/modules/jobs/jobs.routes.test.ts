import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, jobs } from '../../db/schema/index.ts';
import { type Caller, createTestApp, type TestApp } from '../../test/test-app.ts';

const FORBIDDEN = "Vous n'avez pas les droits nécessaires pour effectuer cette action.";
const SECRET_BODY = 'Votre mot de passe temporaire : Secret-Body-42';

/** Issue 31: an admin sees failed mails and jobs, never a mail's body, and sends a failed one again. */
describe('failed mails and jobs', () => {
  let t: TestApp;
  let admin: Caller;
  let failedMailId: number;
  let failedResetId: number;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.as('admin');
    const failedAt = new Date(Date.now() - 60_000);
    const [mail, reset] = await t.db
      .insert(jobs)
      .values([
        {
          kind: 'mail',
          payload: { to: 'panne@reformes.test', subject: 'Réformes : votre compte', text: SECRET_BODY },
          attempts: 50,
          max_attempts: 50,
          last_error: 'connect ECONNREFUSED 127.0.0.1:25',
          failed_at: failedAt,
        },
        {
          kind: 'reset-link',
          payload: { email: 'oubli@reformes.test' },
          attempts: 10,
          max_attempts: 10,
          last_error: 'base indisponible',
          failed_at: new Date(failedAt.getTime() - 60_000),
        },
      ])
      .returning({ id: jobs.id });
    failedMailId = mail.id;
    failedResetId = reset.id;
    // A mail waiting for its next attempt, in an hour.
    await t.db.insert(jobs).values({
      kind: 'mail',
      payload: { to: 'attente@reformes.test', subject: 'Réformes : notification', text: SECRET_BODY },
      attempts: 3,
      max_attempts: 50,
      last_error: 'timeout',
      run_at: new Date(Date.now() + 3_600_000),
    });
  });
  afterAll(() => t.close());

  it('lists the failed jobs for an admin, last failed first, with recipient and subject but never the body', async () => {
    const response = await admin.get('jobs');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.isPaginate).toBe(true);
    expect(body.data).toMatchObject({ current_page: 1, per_page: 20, total: 2, last_page: 1 });
    expect(body.data.data).toEqual([
      {
        id: failedMailId,
        kind: 'mail',
        to: 'panne@reformes.test',
        subject: 'Réformes : votre compte',
        attempts: 50,
        max_attempts: 50,
        last_error: 'connect ECONNREFUSED 127.0.0.1:25',
        run_at: expect.any(String),
        created_at: expect.any(String),
        failed_at: expect.any(String),
      },
      expect.objectContaining({ id: failedResetId, kind: 'reset-link', to: 'oubli@reformes.test', subject: null }),
    ]);
    expect(response.body).not.toContain('Secret-Body-42');
    expect(response.body).not.toContain('"text"');
    expect(response.body).not.toContain('payload');
  });

  it('lists the waiting jobs with state=pending, and pages', async () => {
    const response = await admin.get('jobs?state=pending&per_page=1');
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      total: 1,
      per_page: 1,
      data: [{ to: 'attente@reformes.test', attempts: 3, failed_at: null }],
    });
    expect(response.body).not.toContain('Secret-Body-42');
    expect((await admin.get('jobs?state=done')).statusCode).toBe(422);
  });

  it('refuses the list and the retry to a role without the right (403)', async () => {
    for (const role of ['saisie central', 'saisie', 'validation', 'publication'] as const) {
      const caller = await t.as(role);
      const list = await caller.get('jobs');
      expect(list.statusCode).toBe(403);
      expect(list.json().message).toBe(FORBIDDEN);
      expect((await caller.post(`jobs/${failedMailId}/retry`)).statusCode).toBe(403);
    }
    expect((await t.anonymous.get('jobs')).statusCode).toBe(401);
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, failedMailId));
    expect(row.failed_at).not.toBeNull();
  });

  it('answers 404 for a job that is not failed', async () => {
    const [pending] = await t.db.select({ id: jobs.id }).from(jobs).where(eq(jobs.kind, 'mail')).orderBy(desc(jobs.id)).limit(1);
    const response = await admin.post(`jobs/${pending.id}/retry`);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe("Cette tâche n'existe pas ou n'est pas en échec.");
    expect((await admin.post('jobs/999999/retry')).statusCode).toBe(404);
  });

  it('sends a failed mail again: delivered once the queue settles, audited, and no longer listed as failed', async () => {
    const response = await admin.post(`jobs/${failedMailId}/retry`);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Tâche relancée : elle sera tentée de nouveau dans un instant.');
    await t.app.settled();

    const delivered = t.outbox().find((message) => message.includes('To: panne@reformes.test'));
    expect(delivered).toContain(SECRET_BODY);
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, failedMailId));
    expect(row).toMatchObject({ attempts: 1, failed_at: null });
    expect(row.done_at).not.toBeNull();
    // Delivered: its body is erased, as for any mail.
    expect(row.payload).toEqual({ to: 'panne@reformes.test', subject: 'Réformes : votre compte' });

    const [entry] = await t.db.select().from(auditLog).where(eq(auditLog.action, 'job.retry'));
    expect(entry).toMatchObject({
      actor_email: 'admin@reformes.test',
      target_type: 'job',
      target_id: failedMailId,
      target_label: 'panne@reformes.test',
      result: 'success',
      details: { kind: 'mail' },
    });

    const failed = (await admin.get('jobs')).json().data;
    expect(failed.data.map((job: { id: number }) => job.id)).toEqual([failedResetId]);
    // Already retried: no longer failed.
    expect((await admin.post(`jobs/${failedMailId}/retry`)).statusCode).toBe(404);
  });
});

/** Issue 40, item 12: the mails that carry a secret name its expiry; once erased, a failed one is not sent again. */
describe('mails that carry a secret', () => {
  let t: TestApp;
  let admin: Caller;

  beforeAll(async () => {
    // No SMTP server there: the mails stay queued, as they were written.
    t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:9' });
    admin = await t.as('admin');
  });
  afterAll(() => t.close());

  const secretUntilOf = async (to: string) => {
    const [row] = await t.db.select({ payload: jobs.payload }).from(jobs).where(eq(jobs.kind, 'mail')).orderBy(desc(jobs.id)).limit(1);
    expect(row.payload.to).toBe(to);
    return Date.parse(row.payload.secretUntil as string) - Date.now();
  };

  it("a new account's temporary password lasts 72 hours, a reset link 60 minutes: so do their mails", async () => {
    const created = await admin.post('users', {
      lastname: 'Secret',
      firstname: 'Awa',
      address: 'Rue 1',
      email: 'awa.secret@reformes.test',
      phone: '0701020304',
      structure_id: 1,
      roles: ['saisie'],
      is_signer: '',
    });
    expect(created.statusCode).toBe(201);
    expect(Math.abs((await secretUntilOf('awa.secret@reformes.test')) - 72 * 3_600_000)).toBeLessThan(60_000);

    await t.app.inject({ method: 'POST', url: '/api/v1/api/forgot-password', payload: { email: 'saisie@reformes.test' } });
    expect(Math.abs((await secretUntilOf('saisie@reformes.test')) - 3_600_000)).toBeLessThan(60_000);
  });

  it('refuses to send again a failed mail whose body was erased (409)', async () => {
    const [erased] = await t.db
      .insert(jobs)
      .values({
        kind: 'mail',
        payload: { to: 'efface@reformes.test', subject: 'Réformes : réinitialisation de votre mot de passe' },
        attempts: 1,
        max_attempts: 1500,
        last_error: 'Le secret de ce courriel (lien ou mot de passe temporaire) a expiré avant son envoi : son contenu est effacé.',
        failed_at: new Date(),
      })
      .returning({ id: jobs.id });
    const response = await admin.post(`jobs/${erased.id}/retry`);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(
      "Le contenu de ce courriel a été effacé (il portait un secret, ou n'était pas un courriel valide) : il ne peut pas être relancé.",
    );
    const [row] = await t.db.select().from(jobs).where(eq(jobs.id, erased.id));
    expect(row.failed_at).not.toBeNull();
  });
});
