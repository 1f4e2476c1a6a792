import fs from 'node:fs';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type App, buildApp } from '../../app.ts';
import { MIGRATIONS_FOLDER } from '../../db/migrate.ts';
import { menus, reformes, reminderDeliveries, roles, structures, users } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createAccessService } from '../access/access.service.ts';
import { createRemindersService, weekOf } from './reminders.service.ts';

const DAY_MS = 86_400_000;
/** `YYYY-MM-DD`, `days` after today (UTC). */
const dayFrom = (days: number, from = Date.now()) => new Date(from + days * DAY_MS).toISOString().slice(0, 10);
const french = (iso: string) => iso.split('-').reverse().join('/');

describe('weekOf', () => {
  it('is the Monday of the week, Monday to Sunday', () => {
    expect(weekOf('2026-11-23')).toBe('2026-11-23');
    expect(weekOf('2026-11-26')).toBe('2026-11-23');
    expect(weekOf('2026-11-29')).toBe('2026-11-23');
    expect(weekOf('2026-11-30')).toBe('2026-11-30');
  });
});

/**
 * Issue 32, item 2: the digests of a structure's saisie accounts and of the portfolio's readers, around the
 * thresholds (late, 29, 30 and 31 days without follow-up), with opt-outs, once a week, once across instances.
 */
describe('reminders (issue 32)', () => {
  let t: TestApp;
  let structureId: number;
  let quietStructureId: number;
  const ids: Record<string, number> = {};
  const emails: Record<string, string> = {};

  /** A reform of the test structure; `suivi` is the day of its one follow-up record, `validated` its result's status. */
  async function aReforme(
    name: string,
    {
      debut,
      fin,
      suivi,
      validated = false,
      active = true,
    }: { debut: number; fin: number; suivi?: number; validated?: boolean; active?: boolean },
  ) {
    const [creator] = await t.db.select({ id: users.id }).from(users).limit(1);
    const [{ nature_id, couverture_id }] = (
      await t.db.execute<{ nature_id: number; couverture_id: number }>(
        sql`select nature_id, couverture_id from reformes order by id limit 1`,
      )
    ).rows;
    const [row] = await t.db
      .insert(reformes)
      .values({
        libref: `Rappel ${name}`,
        typeref: 'SECTORIELLE',
        nature_id,
        couverture_id,
        objectif_glob: 'Objectif',
        popul_cible: 'Population',
        struct_impl: 'Structures',
        date_debut: dayFrom(debut),
        date_fin: dayFrom(fin),
        periodexe: 'Période',
        structure_id: structureId,
        created_by: creator.id,
        is_active: active,
      })
      .returning({ id: reformes.id });
    ids[name] = row.id;
    const [objectif] = (
      await t.db.execute<{ id: number }>(sql`insert into objectifs (libobjectif, reforme_id) values ('Objectif', ${row.id}) returning id`)
    ).rows;
    const [resultat] = (
      await t.db.execute<{ id: number }>(sql`insert into resultats (libresult, indicateur, valeur_cible, valeurref, objectif_id, status)
        values ('Résultat', 'Indicateur', 100, 0, ${objectif.id}, ${validated ? 1 : 0}) returning id`)
    ).rows;
    if (suivi !== undefined) {
      await t.db.execute(sql`insert into suivi_results (taux_realisat, valeur_realise, date, result_id)
        values (10, 10, ${dayFrom(suivi)}::date, ${resultat.id})`);
    }
  }

  /** The mails to `email` since `from` (an index in the outbox). */
  const mailsTo = (email: string, from = 0) =>
    t
      .outbox()
      .slice(from)
      .filter((mail) => new RegExp(`^To: ${email}$`, 'm').test(mail));

  async function aStructure(sigl: string) {
    const [sector] = (await t.db.execute<{ id: number }>(sql`select id from sectors order by id limit 1`)).rows;
    const [row] = await t.db
      .insert(structures)
      .values({
        designation: `Structure ${sigl}`,
        sigl,
        adresse_struct: 'Cité',
        email: `${sigl}@reformes.test`,
        telephone: '0600000000',
        sector_id: sector.id,
      })
      .returning({ id: structures.id });
    return row.id;
  }

  async function anAccount(name: string, role: string, fields: Partial<typeof users.$inferInsert> = {}) {
    const user = await t.createAccount(role, { structure_id: structureId, ...fields });
    emails[name] = user.email;
    return user;
  }

  beforeAll(async () => {
    t = await createTestApp({ PUBLIC_URL: 'https://reformes.example' });
    structureId = await aStructure('RAP');
    quietStructureId = await aStructure('CALME');
    await aReforme('late', { debut: -200, fin: -1, suivi: -5 });
    await aReforme('29 days', { debut: -100, fin: 100, suivi: -29 });
    await aReforme('30 days', { debut: -100, fin: 100, suivi: -30 });
    await aReforme('31 days', { debut: -100, fin: 100, suivi: -31 });
    await aReforme('never followed', { debut: -40, fin: 100 });
    await aReforme('not started', { debut: 10, fin: 100 });
    await aReforme('finished', { debut: -200, fin: -10, suivi: -50, validated: true });
    await aReforme('inactive', { debut: -200, fin: -1, active: false });
    await aReforme('stale', { debut: -300, fin: 100, suivi: -120 });
    await anAccount('saisie', 'saisie');
    await anAccount('saisie opted out', 'saisie');
    await anAccount('validation', 'validation');
    await anAccount('blocked saisie', 'saisie', { is_active: false });
    await anAccount('quiet saisie', 'saisie', { structure_id: quietStructureId });
    await anAccount('publication', 'publication');
    await anAccount('central', 'saisie central');
    await anAccount('publication opted out', 'publication');
  });
  afterAll(() => t.close());

  it('lets each user turn a digest off in « Mon compte », and refuses anything but two yes-or-no answers (422)', async () => {
    const saisie = await t.as(emails['saisie opted out']);
    expect((await saisie.get('api/user/reminders')).json().data).toEqual({ structure_digest: true, portfolio_digest: true });
    const saved = await saisie.put('api/user/reminders', { structure_digest: false, portfolio_digest: true });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      message: 'Vos préférences de rappel sont enregistrées.',
      data: { structure_digest: false, portfolio_digest: true },
    });
    expect((await saisie.get('api/user/reminders')).json().data).toEqual({ structure_digest: false, portfolio_digest: true });

    const publication = await t.as(emails['publication opted out']);
    expect((await publication.put('api/user/reminders', { structure_digest: true, portfolio_digest: false })).statusCode).toBe(200);

    for (const body of [
      { structure_digest: 'non', portfolio_digest: true },
      { structure_digest: true },
      { structure_digest: true, portfolio_digest: true, extra: 1 },
    ]) {
      const refused = await saisie.put('api/user/reminders', body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(refused.json().message).toBeTypeOf('string');
      expect(Object.keys(refused.json().errorsList ?? {}).length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    expect((await t.anonymous.get('api/user/reminders')).statusCode).toBe(401);
  });

  it('shows the schedule and sends the reminders now for the jobs right only', async () => {
    const saisie = await t.as('saisie');
    expect((await saisie.get('reminders')).statusCode).toBe(403);
    expect((await saisie.post('reminders/run')).statusCode).toBe(403);
    const admin = await t.as('admin');
    const status = await admin.get('reminders');
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json().data).toEqual({ daily_at: '07:00', no_follow_up_days: 30, last_run: null });
  });

  it("mails each saisie account its structure's late and unfollowed reforms, and the portfolio to publication and saisie central", async () => {
    const admin = await t.as('admin');
    const before = t.outbox().length;
    const ran = await admin.post('reminders/run');
    expect(ran.statusCode, ran.body).toBe(200);
    const run = ran.json().data;
    expect(ran.json().message).toBe(`Rappels envoyés : ${run.mails} courriels mis en file d'envoi.`);
    expect(run).toMatchObject({ trigger: 'manual', errors: 0, failed: 0 });
    expect(run.finished_at).toEqual(expect.any(String));

    // The structure digest: the table of cases.
    const [digest, ...again] = mailsTo(emails.saisie, before);
    expect(again).toEqual([]);
    // The subject, as the HTML part's title (the header is MIME-encoded).
    expect(digest).toContain('<title>Réformes : 5 réformes de votre structure à suivre</title>');
    expect(digest).toContain('RAP (Structure RAP)');
    for (const name of ['late', '30 days', '31 days', 'never followed', 'stale']) {
      expect(digest, name).toContain(`« Rappel ${name} »`);
      expect(digest, name).toContain(`https://reformes.example/admin/follow-reformes?reforme=${ids[name]}`);
    }
    for (const name of ['29 days', 'not started', 'finished', 'inactive']) expect(digest, name).not.toContain(`Rappel ${name}`);
    expect(digest).toContain(`« Rappel late » — Statut : En retard — Dernier suivi : ${french(dayFrom(-5))}`);
    expect(digest).toContain('« Rappel stale » — Statut : Sans suivi depuis 120 jours');
    expect(digest).toContain(`« Rappel 31 days » — Statut : `);
    expect(digest).toContain(`Dernier suivi : ${french(dayFrom(-31))}`);
    expect(digest).toContain('« Rappel never followed » — Statut : ');
    expect(digest).toMatch(/« Rappel never followed » — Statut : [^—]+— Dernier suivi : aucun/);
    // Plain text and HTML, no password or token.
    expect(digest).toMatch(/Content-Type: text\/plain/);
    expect(digest).toMatch(/Content-Type: text\/html/);
    expect(digest).toContain(`<a href="https://reformes.example/admin/follow-reformes?reforme=${ids.late}">Rappel late</a>`);
    expect(digest).toContain('https://reformes.example/admin/user-account');
    expect(digest).not.toMatch(/mot de passe|token|jeton/i);

    for (const name of ['saisie opted out', 'validation', 'blocked saisie', 'quiet saisie', 'publication opted out']) {
      expect(mailsTo(emails[name], before), name).toEqual([]);
    }

    // The portfolio digest: counts per status as the overview counts them, the latest late reforms, the filtered link.
    const central = await t.as(emails.central);
    const counts = (await central.get('portfolio/counts')).json().data as Record<string, number>;
    for (const name of ['central', 'publication']) {
      const [weekly, ...more] = mailsTo(emails[name], before);
      expect(more, name).toEqual([]);
      expect(weekly).toContain('<title>Réformes : le portefeuille de la semaine</title>');
      expect(weekly).toContain(`- En retard : ${counts.en_retard}`);
      expect(weekly).toContain(`- Dans les temps : ${counts.dans_les_temps}`);
      expect(weekly).toContain(`- Total : ${Object.values(counts).reduce((sum, count) => sum + count, 0)}`);
      expect(weekly).toContain(`« Rappel late » (RAP), en retard depuis le ${french(dayFrom(0))}`);
      expect(weekly).toContain('https://reformes.example/admin/follow-reformes?status=en_retard');
      expect(weekly).not.toContain('Rappel inactive');
    }
    const lateLines = mailsTo(emails.central, before)[0]
      .split('\n')
      .filter((line) => /^- « .* en retard depuis le/.test(line));
    expect(lateLines).toHaveLength(10);

    const [entry] = (
      await t.db.execute<{ actor: string; details: Record<string, number> }>(
        sql`select actor_email as actor, details from audit_log where action = 'reminders.run' order by id desc limit 1`,
      )
    ).rows;
    expect(entry).toEqual({ actor: 'admin@reformes.test', details: { run: run.id, mails: run.mails, errors: 0 } });

    const status = (await admin.get('reminders')).json().data;
    expect(status.last_run).toMatchObject({ id: run.id, mails: run.mails, delivered: run.mails, waiting: 0, failed: 0 });
  });

  it('sends a digest at most once a week: a second run sends nothing new, the next week sends again', async () => {
    const admin = await t.as('admin');
    const before = t.outbox().length;
    const second = await admin.post('reminders/run');
    expect(second.json().data.mails).toBe(0);
    expect(second.json().message).toBe("Rappels envoyés : 0 courriel mis en file d'envoi.");
    expect(t.outbox().length).toBe(before);

    const nextWeek = createRemindersService({
      db: t.db,
      publicUrl: 'https://reformes.example',
      noFollowUpDays: 30,
      log: t.app.log,
      now: () => new Date(Date.now() + 7 * DAY_MS),
    });
    const run = await nextWeek.run('schedule');
    expect(run.mails).toBeGreaterThan(0);
    // Queued outside a request, these wait for a worker: read them in the queue, then leave it clean.
    const queuedTo = (
      await t.db.execute<{ to: string }>(sql`select j.payload->>'to' as to from reminder_deliveries d join jobs j on j.id = d.job_id
        where d.week = ${weekOf(dayFrom(7))}::date`)
    ).rows.map((row) => row.to);
    expect(queuedTo).toHaveLength(run.mails);
    expect(queuedTo.filter((to) => to === emails.saisie)).toHaveLength(1);
    expect(queuedTo.filter((to) => to === emails.publication)).toHaveLength(1);
    expect(queuedTo).not.toContain(emails['saisie opted out']);
    await t.db.execute(sql`delete from jobs where kind = 'mail' and done_at is null`);
  });

  it('adds the menu entry « Rappels » to an older database, after « Courriels et tâches », once (migration 0017)', async () => {
    const inserts = fs
      .readFileSync(path.join(MIGRATIONS_FOLDER, '0017_reminders.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .filter((statement) => statement.includes('INSERT INTO'));
    const [admin] = await t.db.select({ id: roles.id }).from(roles).where(eq(roles.name, 'admin'));
    const entries = async () =>
      (await createAccessService(t.db).windowsOf(admin.id))
        .find((node) => node.name === 'Habilitations')
        ?.children.map((node) => node.route)
        .slice(-2);
    expect(await entries()).toEqual(['/admin/jobs', '/admin/reminders']);
    await t.db.delete(menus).where(eq(menus.route, '/admin/reminders'));
    for (let run = 0; run < 2; run++) for (const statement of inserts) await t.db.execute(sql.raw(statement));
    expect(await entries()).toEqual(['/admin/jobs', '/admin/reminders']);
    expect(await t.db.select({ id: menus.id }).from(menus).where(eq(menus.route, '/admin/reminders'))).toHaveLength(1);
  });

  describe('two instances on one database', () => {
    let b: App;
    beforeAll(async () => {
      b = await buildApp({ config: t.config, database: t.database, logger: false });
      await b.ready();
    });
    afterAll(() => b.close());

    const freshWeek = () => t.db.delete(reminderDeliveries);
    const digestsPerRecipient = async () =>
      (
        await t.db.execute<{ user_id: number; digest: string; total: number }>(
          sql`select user_id, digest, count(*)::int as total from reminder_deliveries group by 1, 2 having count(*) > 1`,
        )
      ).rows;

    it('sends each digest once when both are asked at the same moment', async () => {
      await freshWeek();
      const before = t.outbox().length;
      const admin = await t.as('admin');
      const [one, two] = await Promise.all([
        t.app.inject({ method: 'POST', url: '/api/v1/reminders/run', headers: admin.headers }),
        b.inject({ method: 'POST', url: '/api/v1/reminders/run', headers: admin.headers }),
      ]);
      await b.settled();
      await t.app.settled();
      expect([one.statusCode, two.statusCode]).toEqual([200, 200]);
      const [{ total }] = (await t.db.execute<{ total: number }>(sql`select count(*)::int as total from reminder_deliveries`)).rows;
      expect(one.json().data.mails + two.json().data.mails).toBe(total);
      expect(await digestsPerRecipient()).toEqual([]);
      expect(mailsTo(emails.saisie, before)).toHaveLength(1);
      expect(mailsTo(emails.central, before)).toHaveLength(1);
    });

    it('runs the scheduled job once across the two instances, and its digests once', { timeout: 60_000 }, async () => {
      await freshWeek();
      const before = t.outbox().length;
      // Each instance's scheduler queues the current day's job as it starts listening; the database keeps one.
      await Promise.all([t.app.listen({ port: 0, host: '127.0.0.1' }), b.listen({ port: 0, host: '127.0.0.1' })]);
      await vi.waitFor(
        async () => {
          const jobs = (await t.db.execute<{ done: boolean }>(sql`select done_at is not null as done from jobs where kind = 'reminders'`))
            .rows;
          expect(jobs).toEqual([{ done: true }]);
          expect(mailsTo(emails.saisie, before)).toHaveLength(1);
          expect(mailsTo(emails.central, before)).toHaveLength(1);
        },
        { timeout: 30_000, interval: 200 },
      );
      expect(await digestsPerRecipient()).toEqual([]);
      const [run] = (await t.db.execute<{ trigger: string }>(sql`select trigger from reminder_runs order by id desc limit 1`)).rows;
      expect(run.trigger).toBe('schedule');
    });
  });
});
