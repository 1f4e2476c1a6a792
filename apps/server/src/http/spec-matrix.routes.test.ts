import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp } from '../test/test-app.ts';

/**
 * The authorisation matrix as the specification states it, written by hand from spec §2.3 (the menus: what a
 * role reaches) and §6 (the buttons of each screen), and never read from DEFAULT_GRANTS: the generated
 * matrix (authorisation-matrix.test.ts) proves the guard applies the seed, this one proves the seed and the
 * handlers' own role rules apply the spec. Where the spec says nothing, the row follows docs/decisions.md
 * and says so.
 *
 * "Allowed" means anything but 403 (and never 401): 2xx, or a 404/409/422 from a handler that let the role
 * in. Calls aim at ids that do not exist, empty bodies, or reforms at a stage where the workflow refuses the
 * change with a 409, so that allowed calls change nothing; a role refused by a handler's own rule (publication
 * transmitting, saisie validating a result) gets 403 like a role the guard refuses.
 */

const Y = true;
const N = false;

/** The columns of the table, in this order. "observateur" is a role an administrator created: no menu (§2.3). */
const CALLERS = ['admin', 'saisie central', 'saisie', 'validation', 'publication', 'observateur'] as const;
type Caller = (typeof CALLERS)[number];
type Allowed = readonly [admin: boolean, central: boolean, saisie: boolean, validation: boolean, publication: boolean, other: boolean];

/** Demo rows of the MS structure, the one saisie and validation see (docs/decisions.md "Demo data"). */
interface DemoIds {
  /** A reform at stage 1, not published. */
  draft: number;
  /** A reform at stage 3, published. */
  published: number;
  /** A pending expected result (status 0) without any follow-up record. */
  pending: number;
}

interface Row {
  /** "METHOD path" under the API base; `:draft`, `:published` and `:pending` stand for the `DemoIds`. */
  call: string;
  body?: Record<string, unknown> | ((ids: DemoIds) => Record<string, unknown>);
  allowed: Allowed;
}

const MISSING = 999999;

const SPEC_MATRIX: readonly Row[] = [
  // Columns: admin, saisie central, saisie, validation, publication, a role of its own.

  // §2.3: the menu of each of the five roles starts with "Tableau de bord"; a role of its own has no menu and a
  // new role no right (docs/decisions-issue13-roles.md): its dashboard says it has no indicator.
  { call: 'GET dash', allowed: [Y, Y, Y, Y, Y, N] },

  // §7 "Auth and account", §2.7: one's own account, for every signed-in user (docs/decisions-issue13-roles.md).
  { call: 'GET api/user', allowed: [Y, Y, Y, Y, Y, Y] },
  { call: 'POST api/user-update', body: {}, allowed: [Y, Y, Y, Y, Y, Y] },
  { call: 'POST api/change-password', body: {}, allowed: [Y, Y, Y, Y, Y, Y] },

  // §2.5: the public list needs no sign-in at all.
  { call: 'GET reformes/public/suivi-result', allowed: [Y, Y, Y, Y, Y, Y] },

  // Reforms. §2.3: "Réformes > Liste" for admin, saisie central and publication; saisie and validation read
  // their reforms through "A transmettre"/"A valider" and "Mes enregistrements" (§2.10), the same list right.
  { call: 'GET reformes', allowed: [Y, Y, Y, Y, Y, N] },
  // §6 reforms list: "admin none of show/add/edit/delete"; the four others show, add, edit, delete.
  { call: 'GET reformes/:draft', allowed: [N, Y, Y, Y, Y, N] },
  { call: 'POST reformes', body: {}, allowed: [N, Y, Y, Y, Y, N] },
  { call: 'PUT reformes/:published', body: {}, allowed: [N, Y, Y, Y, Y, N] },
  // §6: "state" (activate/deactivate) is on saisie central's buttons only. The reform is active: a no-op.
  { call: 'GET reformes/:published/state/1', allowed: [N, Y, N, N, N, N] },
  // §6: publish and unpublish for saisie central (reforms list) and publication (reforms list, "A publier").
  // A reform at stage 1 cannot be published yet: the allowed roles get 409.
  { call: 'GET reformes/state/publish/:draft', allowed: [N, Y, N, N, Y, N] },
  { call: 'GET reformes/state/unpublish/:draft', allowed: [N, Y, N, N, Y, N] },
  // §6 reforms to validate: "transmit for every role except publication", among the roles whose menu has that
  // screen (saisie, validation, publication, §2.3). The reform is published: the allowed roles get 409.
  { call: 'POST affectations', body: (ids) => ({ reforme_id: ids.published, sens: -1 }), allowed: [N, N, Y, Y, N, N] },
  // §6: "return for correction for publication or validation".
  { call: 'POST affectations', body: (ids) => ({ reforme_id: ids.published, sens: 1, instruction: 'Motif' }), allowed: [N, N, N, Y, Y, N] },
  // §2.10 create reform, "Documentation": whoever adds a reform attaches its PDF files.
  { call: 'POST files', body: {}, allowed: [N, Y, Y, Y, Y, N] },

  // Objectives and expected results. §6: saisie gets "define objectives" and "register an expected result";
  // saisie central gets "result" on the reforms list. Activating/deactivating them goes with managing them.
  { call: 'POST objectifs', body: {}, allowed: [N, Y, Y, N, N, N] },
  { call: `GET objectifs/${MISSING}/state/1`, allowed: [N, Y, Y, N, N, N] },
  { call: 'POST resultats', body: {}, allowed: [N, Y, Y, N, N, N] },
  { call: `GET resultats/${MISSING}/state/1`, allowed: [N, Y, Y, N, N, N] },
  // §6 follow-up view: "Valider" only to publication (a result without follow-up: 409 for publication).
  { call: 'PUT resultats/:pending', body: { status: 1 }, allowed: [N, N, N, N, Y, N] },

  // Follow-up records. §2.3: "Données de suivi" is in saisie's menu; §6 gives validation the Action column
  // and "Retirer" on that screen, so validation records them too (spec silent on its route to the screen).
  { call: 'POST suivi-results', body: {}, allowed: [N, N, Y, Y, N, N] },
  // §6: "Retirer" only to validation.
  { call: `DELETE suivi-results/${MISSING}`, allowed: [N, N, N, Y, N, N] },

  // Reference lists. §2.3: Configurations (Secteurs, Structures, Natures, Couvertures) for admin and saisie
  // central; §6: "all reference lists ... grant show/add/edit/delete". The other three read structures,
  // natures and covers for their reform forms and filters (§2.10).
  ...['sectors', 'structures', 'natures', 'covers'].flatMap((resource): Row[] => [
    // Spec silent on sectors for saisie, validation and publication: they read them like the other lookups
    // (harmless, and what the architecture's defaults give).
    { call: `GET ${resource}`, allowed: [Y, Y, Y, Y, Y, N] },
    { call: `POST ${resource}`, body: {}, allowed: [Y, Y, N, N, N, N] },
    { call: `PUT ${resource}/${MISSING}`, body: {}, allowed: [Y, Y, N, N, N, N] },
    { call: `DELETE ${resource}/${MISSING}`, allowed: [Y, Y, N, N, N, N] },
    { call: `GET ${resource}/${MISSING}/state/1`, allowed: [Y, Y, N, N, N, N] },
  ]),
  // Spec silent: docs/decisions.md "Menus beyond spec §2.3" gives admin and saisie central "Entités administratives".
  { call: 'GET entities', allowed: [Y, Y, N, N, N, N] },
  { call: 'POST entities', body: {}, allowed: [Y, Y, N, N, N, N] },

  // Users. §2.3: "Comptes utilisateurs" is admin's only.
  { call: 'GET users', allowed: [Y, N, N, N, N, N] },
  { call: 'POST users', body: {}, allowed: [Y, N, N, N, N, N] },
  { call: `PUT users/${MISSING}`, body: {}, allowed: [Y, N, N, N, N, N] },
  { call: `DELETE users/${MISSING}`, allowed: [Y, N, N, N, N, N] },
  { call: `GET users/${MISSING}/state/1`, allowed: [Y, N, N, N, N, N] },

  // Roles and permissions. Spec silent on who: docs/decisions.md "Menus beyond spec §2.3" gives admin the group
  // "Habilitations" (Rôles, Permissions, Rôles & permissions).
  { call: 'GET roles', allowed: [Y, N, N, N, N, N] },
  { call: 'POST roles', body: {}, allowed: [Y, N, N, N, N, N] },
  { call: 'GET permissions', allowed: [Y, N, N, N, N, N] },
  { call: 'GET profiles', allowed: [Y, N, N, N, N, N] },
  { call: 'POST profiles', body: {}, allowed: [Y, N, N, N, N, N] },

  // Backups. §2.3: "Sauvegarde" is admin's; saisie central has "configurations without backups".
  { call: 'GET backups', allowed: [Y, N, N, N, N, N] },
  { call: `DELETE backups/${MISSING}`, allowed: [Y, N, N, N, N, N] },

  // Journal d'audit. Spec silent (issue 14): the security audit log is admin's only, in its group "Habilitations"
  // (docs/decisions.md "Journal d'audit").
  { call: 'GET audit-logs', allowed: [Y, N, N, N, N, N] },
  { call: 'GET audit-logs/export.csv', allowed: [Y, N, N, N, N, N] },

  // Courriels et tâches. Spec silent (issue 31): failed mails and jobs are admin's only, next to the audit log.
  { call: 'GET jobs', allowed: [Y, N, N, N, N, N] },
  { call: `POST jobs/${MISSING}/retry`, allowed: [Y, N, N, N, N, N] },
  // Rappels (issue 32): the reminders are the queue's work, under the same right; each user's own choice is any
  // signed-in user's (docs/decisions.md "Reminders by mail").
  { call: 'GET reminders', allowed: [Y, N, N, N, N, N] },
  { call: 'GET api/user/reminders', allowed: [Y, Y, Y, Y, Y, Y] },

  // Last, since an allowed call could change the reform: a published reform is deleted by no one (409 for the
  // four roles that delete reforms, §6), admin and a role of its own are refused.
  { call: 'DELETE reformes/:published', allowed: [N, Y, Y, Y, Y, N] },
];

const EMAILS: Record<Exclude<Caller, 'observateur'>, string> = {
  admin: 'admin@reformes.test',
  'saisie central': 'central@reformes.test',
  saisie: 'saisie@reformes.test',
  validation: 'validation@reformes.test',
  publication: 'publication@reformes.test',
};
const OBSERVER = { email: 'paul.observateur@reformes.test', password: 'Matrice-Vigie-2026' };

describe('authorisation matrix written from the specification', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  const headers = new Map<Caller, Record<string, string>>();
  const ids: DemoIds = { draft: 0, published: 0, pending: 0 };

  const inject = (call: string, body: Row['body'], auth: Record<string, string>) => {
    const [method, path] = call.split(' ');
    const url = `/api/v1/${path.replace(/:(draft|published|pending)\b/, (_, key: keyof DemoIds) => String(ids[key]))}`;
    return t.app.inject({ method: method as 'GET', url, headers: auth, payload: typeof body === 'function' ? body(ids) : body });
  };

  beforeAll(async () => {
    t = await createTestApp({ LOGIN_MAX_PER_IP_PER_MINUTE: '1000' });
    for (const [caller, email] of Object.entries(EMAILS)) headers.set(caller as Caller, bearer((await t.login(email)).access_token));

    const admin = headers.get('admin') as Record<string, string>;
    expect((await inject('POST roles', { name: 'observateur' }, admin)).statusCode).toBe(201);
    const [ms] = (await t.db.execute<{ id: number }>(sql`select id from structures where sigl = 'MS'`)).rows;
    const created = await inject(
      'POST users',
      {
        lastname: 'Observateur',
        firstname: 'Paul',
        address: 'Cité',
        email: OBSERVER.email,
        phone: '0700000002',
        structure_id: ms.id,
        roles: ['observateur'],
      },
      admin,
    );
    expect(created.statusCode, created.body).toBe(201);
    const mail = t.outbox().find((message) => message.includes(OBSERVER.email)) ?? '';
    const temporary = /mot de passe temporaire : (\S+)/.exec(mail)?.[1];
    const first = bearer((await t.login(OBSERVER.email, temporary)).access_token);
    const changed = await inject(
      'POST api/change-first-password',
      { password: OBSERVER.password, confirm_password: OBSERVER.password },
      first,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    headers.set('observateur', bearer((await t.login(OBSERVER.email, OBSERVER.password)).access_token));

    const one = async (query: ReturnType<typeof sql>) => (await t.db.execute<{ id: number }>(query)).rows[0].id;
    ids.draft = await one(sql`select r.id from reformes r join structures s on s.id = r.structure_id
      where s.sigl = 'MS' and r.stage = 1 and not r.is_published order by r.id limit 1`);
    ids.published = await one(sql`select r.id from reformes r join structures s on s.id = r.structure_id
      where s.sigl = 'MS' and r.stage = 3 and r.is_published order by r.id limit 1`);
    ids.pending = await one(sql`select res.id from resultats res join objectifs o on o.id = res.objectif_id
      join reformes r on r.id = o.reforme_id join structures s on s.id = r.structure_id
      where s.sigl = 'MS' and res.status = 0 and res.is_active and o.is_active
        and not exists (select 1 from suivi_results sr where sr.result_id = res.id) order by res.id limit 1`);
  });
  afterAll(() => t.close());

  it(`answers ${SPEC_MATRIX.length} calls x ${CALLERS.length} roles as spec §2.3 and §6 say`, async () => {
    const mismatches: string[] = [];
    for (const row of SPEC_MATRIX) {
      for (const [column, caller] of CALLERS.entries()) {
        const response = await inject(row.call, row.body, headers.get(caller) as Record<string, string>);
        const refused = response.statusCode === 403;
        const expected = row.allowed[column];
        const body = row.body ? ` ${JSON.stringify(typeof row.body === 'function' ? row.body(ids) : row.body)}` : '';
        if (response.statusCode === 401 || response.statusCode >= 500 || refused === expected) {
          mismatches.push(`${caller}: ${row.call}${body} -> ${response.statusCode}, expected ${expected ? 'allowed' : 'refused (403)'}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('refuses every call but the public list to a visitor without a session (401)', async () => {
    for (const row of SPEC_MATRIX) {
      const { statusCode } = await inject(row.call, row.body, {});
      expect(statusCode, row.call).toBe(row.call.includes('/public/') ? 200 : 401);
    }
  });
});
