import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsExpandOnly } from './migrations.mjs';
import {
  importCircles,
  pagesRoom,
  routesFromTable,
  serverLayers,
  serverRoutes,
  shapesInDomain,
  webLayers,
  webLowerOrder,
} from './rules.mjs';

/** Each rule of `npm run lint`, proved by a deliberate violation in a checkout of a few files. */
let root;
function checkout(files) {
  root = mkdtempSync(join(tmpdir(), 'architecture-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('web layers, on resolved paths', () => {
  it('catches a feature importing another feature from a folder one level deeper (which the Biome globs missed)', () => {
    const breaches = webLayers(
      checkout({
        'apps/web/src/features/reformes/import/import-page.tsx': "import { x } from '../../suivi/suivi-api.ts';\n",
        'apps/web/src/features/suivi/suivi-api.ts': 'export const x = 1;\n',
      }),
    );
    expect(breaches).toEqual([
      'a feature imports another feature: apps/web/src/features/reformes/import/import-page.tsx -> apps/web/src/features/suivi/suivi-api.ts',
    ]);
  });

  it('catches components/ importing a feature and a feature importing app/; allows a feature its own files and components/', () => {
    const breaches = webLayers(
      checkout({
        'apps/web/src/components/table.tsx': "import { y } from '../features/users/users-api.ts';\n",
        'apps/web/src/features/users/users-api.ts': "import { z } from '../../app/routes.tsx';\nexport const y = 1;\n",
        'apps/web/src/features/users/users-page.tsx':
          "import { y } from './users-api.ts';\nimport { T } from '../../components/table.tsx';\n",
        'apps/web/src/app/routes.tsx': 'export const z = 1;\n',
      }),
    );
    expect(breaches).toHaveLength(2);
    expect(breaches[0]).toMatch(/^components\/ imports features\//);
    expect(breaches[1]).toMatch(/^a feature imports app\//);
  });
});

describe('web test helpers (the arrow of the former Biome glob `**/test/**`)', () => {
  it('catches test/ imported by a feature or components/ outside a test, from any workspace; allows it in a test', () => {
    const breaches = webLayers(
      checkout({
        'apps/web/src/features/users/users-page.tsx': "import { render } from '../../test/render.tsx';\n",
        'apps/web/src/components/table.tsx': "import { t } from '../../../server/src/test/test-app.ts';\n",
        'apps/web/src/features/users/users-page.test.tsx': "import { render } from '../../test/render.tsx';\n",
        'apps/web/src/test/render.tsx': 'export const render = 1;\n',
      }),
    );
    expect(breaches).toEqual([
      'test/ imported outside a test: apps/web/src/components/table.tsx -> apps/server/src/test/test-app.ts',
      'test/ imported outside a test: apps/web/src/features/users/users-page.tsx -> apps/web/src/test/render.tsx',
    ]);
  });
});

describe('the lower web layer, ordered: components -> api -> session', () => {
  it('catches api/ importing components/, session/ importing api/ or components/, any of them importing pages/; allows down', () => {
    const breaches = webLowerOrder(
      checkout({
        'apps/web/src/api/show-api-error.tsx':
          "import { notify } from '../components/notify.tsx';\nimport { s } from '../session/session.ts';\n",
        'apps/web/src/session/session-api.ts': "import { call } from '../api/call.ts';\n",
        'apps/web/src/session/flash.ts': "import type { Toast } from '../components/toasts.ts';\nimport { s } from './session.ts';\n",
        'apps/web/src/components/table.tsx':
          "import { call } from '../api/call.ts';\nimport { s } from '../session/session.ts';\nimport { p } from '../pages/dom.ts';\n",
        'apps/web/src/components/notify.tsx': 'export const notify = 1;\n',
        'apps/web/src/components/toasts.ts': 'export type Toast = {};\n',
        'apps/web/src/api/call.ts': 'export const call = 1;\n',
        'apps/web/src/session/session.ts': 'export const s = 1;\n',
        'apps/web/src/pages/dom.ts': 'export const p = 1;\n',
      }),
    );
    expect(breaches).toEqual([
      'api/ imports components/ (components -> api -> session): apps/web/src/api/show-api-error.tsx -> apps/web/src/components/notify.tsx',
      'components/ imports pages/ (components -> api -> session): apps/web/src/components/table.tsx -> apps/web/src/pages/dom.ts',
      'session/ imports components/ (components -> api -> session): apps/web/src/session/flash.ts -> apps/web/src/components/toasts.ts',
      'session/ imports api/ (components -> api -> session): apps/web/src/session/session-api.ts -> apps/web/src/api/call.ts',
    ]);
  });
});

describe("the public pages' room", () => {
  it('catches pages/ reaching React or Mantine through any chain, importing features/, imported from outside, innerHTML elsewhere', () => {
    const breaches = pagesRoom(
      checkout({
        'apps/web/src/pages/public/public-list.ts':
          "import { get } from '../../api/client.ts';\nimport { f } from '../../components/french-format.ts';\nimport { m } from './markup.ts';\nimport './pages.css';\n",
        'apps/web/src/pages/public/markup.ts':
          "import { html } from 'uhtml';\nimport { Badge } from '../../components/badge.tsx';\nexport const m = 1;\n",
        'apps/web/src/pages/entries/login.ts': "import { loginForm } from '../../features/auth/login-form.ts';\n",
        'apps/web/src/pages/dom.ts': 'export const show = (node, markup) => { node.innerHTML = markup; };\n',
        'apps/web/src/pages/public/public-list.test.ts': "import { render } from '@testing-library/react';\nnode.innerHTML = '';\n",
        'apps/web/src/components/badge.tsx': "import { Badge as B } from '@mantine/core';\nexport const Badge = B;\n",
        'apps/web/src/components/french-format.ts': "import { parseAmount } from '@reformes/domain';\nexport const f = 1;\n",
        'apps/web/src/api/client.ts': "import { s } from '../session/session.ts';\nexport const get = 1;\n",
        'apps/web/src/session/session.ts': 'export const s = 1;\n',
        'apps/web/src/features/auth/login-form.ts': "import { useState } from 'react';\nexport const loginForm = 1;\n",
        'apps/web/src/features/public/public-page.tsx': "import { m } from '../../pages/public/markup.ts';\nref.current.innerHTML = m;\n",
        'apps/web/src/features/public/public-page.test.tsx': "import { m } from '../../pages/public/markup.ts';\n",
      }),
    );
    expect(breaches).toEqual([
      'innerHTML outside pages/: apps/web/src/features/public/public-page.tsx',
      'pages/ imported from outside: apps/web/src/features/public/public-page.tsx -> apps/web/src/pages/public/markup.ts',
      'pages/ imports features/: apps/web/src/pages/entries/login.ts -> apps/web/src/features/auth/login-form.ts',
      'pages/ reaches react: apps/web/src/pages/entries/login.ts -> apps/web/src/features/auth/login-form.ts',
      'pages/ reaches @mantine/core: apps/web/src/pages/public/markup.ts -> apps/web/src/components/badge.tsx',
      'pages/ reaches @mantine/core: apps/web/src/pages/public/public-list.ts -> apps/web/src/pages/public/markup.ts -> apps/web/src/components/badge.tsx',
    ]);
  });
});

describe('server layers, on resolved paths', () => {
  it('catches an import going up (the four imports of issue 41) and test/ outside a test; allows down, tests and test helpers', () => {
    const breaches = serverLayers(
      checkout({
        'apps/server/src/http/guard.ts':
          "import { recordAudit } from '../modules/audit/audit.service.ts';\nimport { c } from '../config.ts';\n",
        'apps/server/src/jobs/queue.ts':
          "import { currentRequest } from '../modules/audit/audit-context.ts';\nimport { jobs } from '../db/schema/index.ts';\n",
        'apps/server/src/db/seed/demo.ts': "import { hashPassword } from '../../modules/auth/password.ts';\n",
        'apps/server/src/modules/audit/audit.service.ts':
          "import { API_BASE } from '../../http/guard.ts';\nimport { buildApp } from '../../app.ts';\n",
        'apps/server/src/modules/audit/audit-context.ts': 'export const currentRequest = () => undefined;\n',
        'apps/server/src/modules/auth/password.ts': "import { t } from '../../test/test-app.ts';\n",
        'apps/server/src/modules/auth/password.test.ts':
          "import { t } from '../../test/test-app.ts';\nimport { buildApp } from '../../app.ts';\n",
        'apps/server/src/test/test-app.ts': "import { buildApp } from '../app.ts';\nexport const t = 1;\n",
        'apps/server/src/app.ts': "import { recordAudit } from './modules/audit/audit.service.ts';\nexport const buildApp = 1;\n",
        'apps/server/src/main.ts': "import { buildApp } from './app.ts';\n",
        'apps/server/src/db/schema/index.ts': "import { c } from '../../config.ts';\nexport const jobs = 1;\n",
        'apps/server/src/config.ts': 'export const c = 1;\n',
      }),
    );
    expect(breaches).toEqual([
      'db imports modules (up): apps/server/src/db/seed/demo.ts -> apps/server/src/modules/auth/password.ts',
      'http imports modules (up): apps/server/src/http/guard.ts -> apps/server/src/modules/audit/audit.service.ts',
      'jobs imports modules (up): apps/server/src/jobs/queue.ts -> apps/server/src/modules/audit/audit-context.ts',
      'modules imports app (up): apps/server/src/modules/audit/audit.service.ts -> apps/server/src/app.ts',
      'test/ imported outside a test: apps/server/src/modules/auth/password.ts -> apps/server/src/test/test-app.ts',
    ]);
  });

  it('allows the infrastructure folders to import each other, but not in a circle; names a file in no layer', () => {
    const breaches = serverLayers(
      checkout({
        'apps/server/src/mail/mailer.ts': "import { enqueue } from '../jobs/queue.ts';\nexport const send = 1;\n",
        'apps/server/src/jobs/queue.ts': "import { currentRequest } from '../http/request-context.ts';\nexport const enqueue = 1;\n",
        'apps/server/src/http/request-context.ts': 'export const currentRequest = 1;\n',
        'apps/server/src/storage/stores.ts': "import { s } from '../http/slots.ts';\n",
        'apps/server/src/http/slots.ts': "import { send } from '../mail/mailer.ts';\nexport const s = 1;\n",
        'apps/server/src/helpers/misc.ts': 'export const m = 1;\n',
      }),
    );
    expect(breaches).toEqual([
      'a file in no server layer (add its folder to SERVER_RANKS): apps/server/src/helpers/misc.ts',
      'a circle between infrastructure folders: http/ <-> jobs/ <-> mail/',
    ]);
  });
});

describe('server routes get services', () => {
  it('catches a route file handed `db`, opening a transaction, writing SQL or importing Drizzle, whatever its name', () => {
    const breaches = serverRoutes(
      checkout({
        'apps/server/src/http/route-table.ts': 'export const routeTable = () => () => {};\n',
        'apps/server/src/modules/x/x.routes.ts': [
          "import { eq, sql } from 'drizzle-orm';",
          "import type { Db } from '../../db/client.ts';",
          'export const xRoutes: Plugin<{ db: Db }> = async (app, { db }) => {',
          '  await db.transaction(async (tx) => tx.execute(sql`select 1`));',
          '};',
        ].join('\n'),
        'apps/server/src/modules/z/z-handlers.ts': [
          "import { routeTable } from '../../http/route-table.ts';",
          'export const zRoutes = async (app, { db }) => { const on = routeTable(app); };',
        ].join('\n'),
        'apps/server/src/modules/y/y.routes.ts':
          "import type { YService } from './y.service.ts';\nexport const yRoutes = async (app, { y }) => {};\n",
      }),
    );
    expect(breaches).toEqual([
      'a route file imports drizzle-orm: apps/server/src/modules/x/x.routes.ts',
      'a route file imports the database layer (db/): apps/server/src/modules/x/x.routes.ts',
      'a route file opens a transaction: apps/server/src/modules/x/x.routes.ts',
      'a route file writes SQL: apps/server/src/modules/x/x.routes.ts',
      'a route file is handed the database (`db`): apps/server/src/modules/x/x.routes.ts',
      'a route file is handed the database (`db`): apps/server/src/modules/z/z-handlers.ts',
    ]);
  });
});

describe('routes registered by the route table alone', () => {
  it('catches a Fastify registration in any file, whatever its name or instance; not a Map, a query, a store, the listed files or a test', () => {
    const breaches = routesFromTable(
      checkout({
        'apps/server/src/modules/x/x-handlers.ts': [
          "server.get('/x', async () => ({}));",
          "instance.route({ method: 'GET', url: '/y', handler: async () => ({}) });",
          'api.post(PATHS.z, { schema: {} }, async (request, reply) => reply.send({}));',
          'fastify.delete(`/w/` + id, { handler: async () => ({}) });',
          'const kept = cache.get(key);',
          'await db.delete(users).where(eq(users.id, id));',
          'await store.put(folder, name, stream, size);',
          "request.headers.get('x'); params.get('page');",
        ].join('\n'),
        'apps/server/src/http/metrics.ts': "app.get('/metrics', { schema: { hide: true } }, async () => '');\n",
        'apps/server/src/http/route-table.ts': 'app.route({ method: spec.method, url: spec.path, handler: async () => ({}) });\n',
        'apps/server/src/http/guard.test.ts': "app.get('/api/v1/undeclared', async () => 'oops');\n",
      }),
    );
    expect(breaches).toEqual([
      "a route registered outside the route table (use `on(ROUTES.x, …)`, http/route-table.ts): .get('/x', …) in apps/server/src/modules/x/x-handlers.ts",
      'a route registered outside the route table (use `on(ROUTES.x, …)`, http/route-table.ts): .route({…}) in apps/server/src/modules/x/x-handlers.ts',
      'a route registered outside the route table (use `on(ROUTES.x, …)`, http/route-table.ts): .post(PATHS.z, …) in apps/server/src/modules/x/x-handlers.ts',
      'a route registered outside the route table (use `on(ROUTES.x, …)`, http/route-table.ts): .delete(`/w/` + id, …) in apps/server/src/modules/x/x-handlers.ts',
    ]);
  });
});

describe('answer shapes in packages/domain/src/shapes', () => {
  it('catches an answer written on the spot or taken outside shapes/, whatever its name; follows a local constant; allows shapes/ and parameters', () => {
    const breaches = shapesInDomain(
      checkout({
        'packages/domain/src/shapes/user.ts': 'export const userShape = z.object({});\n',
        'packages/domain/src/shapes/envelope.ts': 'export const listShape = (row) => z.object({ data: z.array(row) });\n',
        'packages/domain/src/two-factor.ts':
          'export const twoFactorStatusShape = z.object({});\nexport const statusRecord = z.object({});\n',
        'packages/domain/src/routes/users.ts': [
          "import { z } from 'zod';",
          "import { listShape } from '../shapes/envelope.ts';",
          "import { userShape } from '../shapes/user.ts';",
          "import { statusRecord } from '../two-factor.ts';",
          'const rows = listShape(userShape);',
          'const odd = listShape(z.object({ id: z.number() }));',
          'export const crud = (row) => ({ show: { answer: listShape(row) } });',
          'export const USERS_ROUTES = {',
          "  list: { method: 'GET', path: '/users', answer: rows },",
          "  one: { method: 'GET', path: '/users/:id', answer: listShape(userShape) },",
          "  inline: { method: 'GET', path: '/inline', answer: z.object({ ok: z.boolean() }) },",
          "  other: { method: 'GET', path: '/status', answer: statusRecord },",
          "  followed: { method: 'GET', path: '/odd', answer: odd },",
          '};',
        ].join('\n'),
        'apps/server/src/modules/x/x.routes.ts': [
          'const statusShape = z.object({ ok: z.boolean() });',
          "app.get('/y', { schema: { querystring: z.object({}), response: { 200: userAnswer } } });",
        ].join('\n'),
        'apps/server/src/http/route-table.ts': 'if (spec.answer) schema.response = { 200: spec.answer };\n',
        'apps/server/src/http/stalled-download.ts': 'export function endWhenStalled(response: ServerResponse): void {}\n',
      }),
    );
    expect(breaches).toEqual([
      'an answer not built from packages/domain/src/shapes/, written on the spot (`z.object({ ok: z.boolean() })`): packages/domain/src/routes/users.ts',
      'an answer not built from packages/domain/src/shapes/, `statusRecord` comes from packages/domain/src/two-factor.ts, not from packages/domain/src/shapes/: packages/domain/src/routes/users.ts',
      'an answer not built from packages/domain/src/shapes/, written on the spot (`listShape(z.object({ id: z.number() }))`): packages/domain/src/routes/users.ts',
      'an answer shape outside packages/domain/src/shapes/: twoFactorStatusShape in packages/domain/src/two-factor.ts',
      'an answer shape defined in the server: statusShape in apps/server/src/modules/x/x.routes.ts',
      'an answer shape set by the server, not the route table: apps/server/src/modules/x/x.routes.ts',
    ]);
  });
});

describe('no import circle', () => {
  it('catches two modules importing each other, type imports included, and not a chain', () => {
    const breaches = importCircles(
      checkout({
        'packages/domain/src/audit.ts': "import type { AuditRow } from './shapes/audit.ts';\nexport const a = 1;\n",
        'packages/domain/src/shapes/audit.ts': "import { a } from '../audit.ts';\nexport type AuditRow = {};\n",
        'packages/domain/src/index.ts': "export * from './audit.ts';\n// import './index.ts' in a comment is no import\n",
      }),
    );
    expect(breaches).toEqual(['an import circle: packages/domain/src/audit.ts <-> packages/domain/src/shapes/audit.ts']);
  });
});

describe('migrations expand only (issue 43)', () => {
  const journal = (tags) => JSON.stringify({ entries: tags.map((tag) => ({ idx: Number(tag.slice(0, 4)), tag })) });
  const release = (version, migrations, { contract, schema = "export const users = pgTable('users', { id: id() });" } = {}) =>
    checkout({
      'package.json': JSON.stringify({ version }),
      'apps/server/src/db/migrations/meta/_journal.json': journal(Object.keys(migrations)),
      ...Object.fromEntries(Object.entries(migrations).map(([tag, sql]) => [`apps/server/src/db/migrations/${tag}.sql`, sql])),
      ...(contract ? { 'apps/server/src/db/migrations/contract.json': JSON.stringify(contract) } : {}),
      'apps/server/src/db/schema/users.ts': schema,
    });
  const drop = 'ALTER TABLE "users" DROP COLUMN "nickname";';

  it('catches a drop, a rename, a type change, a new required column without default after the baseline; not before it', () => {
    const breaches = migrationsExpandOnly(
      release('1.1.0', {
        '0005_old_history': 'ALTER TABLE "users" DROP COLUMN "legacy";',
        '0020_contract': `${drop}--> statement-breakpoint\nALTER TABLE "users" RENAME COLUMN "phone" TO "telephone";`,
        '0021_types':
          'ALTER TABLE "users" ALTER COLUMN "phone" SET DATA TYPE integer;\nALTER TABLE "users" ADD COLUMN "badge" text NOT NULL;',
        '0022_fine':
          'ALTER TABLE "users" ADD COLUMN "badge2" text DEFAULT \'\' NOT NULL;\nALTER TABLE "users" ALTER COLUMN "phone" DROP NOT NULL;\nCREATE TABLE "x" ("id" serial);',
      }),
    );
    expect(breaches.map((breach) => breach.split(':')[0])).toEqual([
      '0020_contract.sql drops a column',
      '0020_contract.sql renames',
      "0021_types.sql changes a column's type",
      '0021_types.sql adds a required column without a default (the previous release inserts rows without it)',
    ]);
  });

  it('allows a drop listed in contract.json one release after the code stopped reading it, once the schema no longer names it', () => {
    const contract = [{ migration: '0020_contract.sql', statement: drop, unusedSince: '1.1.0' }];
    expect(migrationsExpandOnly(release('1.1.0', { '0020_contract': drop }, { contract }))[0]).toMatch(/wait one release/);
    const still = "export const users = pgTable('users', { id: id(), nickname: text() });";
    expect(migrationsExpandOnly(release('1.2.0', { '0020_contract': drop }, { contract, schema: still }))[0]).toMatch(/still names/);
    expect(migrationsExpandOnly(release('1.2.0', { '0020_contract': drop }, { contract }))).toEqual([]);
  });
});
