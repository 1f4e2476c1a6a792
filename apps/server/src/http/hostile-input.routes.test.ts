import { IMPORT_TEMPLATE } from '@reformes/domain';
import { sql } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, type TestApp } from '../test/test-app.ts';
import { API_BASE, type RouteEntry } from './guard.ts';

/**
 * Issue 14: bad input never gives a 500. Every route the guard registered (so a new route is fuzzed without
 * being listed here) receives, one at a time, hostile values in each body field, query parameter and path
 * parameter of an otherwise valid request, then hostile whole bodies (not JSON, wrong content type, too large,
 * multipart without file...). Every answer must be below 500, and every 4xx must carry `{message}`.
 *
 * The table is deterministic (a seeded generator for the random unicode), so a failure replays. Each route is
 * called by a user who may use it: a role holding every right by default, saisie where the handler's own rule
 * wants the role of the reform's stage, nobody for the public routes; admin then replays the path and query
 * tables on every route.
 */

type Caller = 'all' | 'admin' | 'saisie' | 'validation' | 'anonymous';

const MISSING = 999_999;
const HUGE = 'x'.repeat(200_000);

/** Deterministic pseudo-random code points over the whole range, NUL and surrogate halves included (mulberry32). */
function randomUnicode(seed: number, length: number): string {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  let text = '';
  while (text.length < length) {
    const plane = next();
    // Mostly the BMP, where surrogate halves live; some astral characters (emoji, CJK extensions).
    const codePoint = plane < 0.8 ? Math.floor(next() * 0x10000) : 0x10000 + Math.floor(next() * 0x100000);
    text += codePoint <= 0xffff ? String.fromCharCode(codePoint) : String.fromCodePoint(codePoint);
  }
  return text;
}

function nested(depth: number): unknown {
  let value: unknown = 'fond';
  for (let level = 0; level < depth; level++) value = { a: value };
  return value;
}

type Values = ReadonlyArray<readonly [string, unknown]>;

/**
 * Each field gets every value of an `always` list (what reaches the database or a parser: NUL, size, encoding,
 * range) and a few of a `rotating` one (what only needs to be seen once per kind of field: SQL, HTML, shapes),
 * taken in turn so that the whole table still goes round: the run stays within a minute on PGlite.
 */
let turn = 0;
function withRotation<T>(always: ReadonlyArray<T>, rotating: ReadonlyArray<T>, count: number): T[] {
  const picked = Array.from({ length: count }, (_, index) => rotating[(turn + index) % rotating.length]);
  turn += count;
  return [...always, ...picked];
}

const TEXT_ALWAYS: Values = [
  ['NUL', '\u0000'],
  ['NUL inside a label', 'Santé\u0000publique'],
  ['200 000 characters', HUGE],
  ['3 000 accented characters (6 KB, above an index row)', 'é'.repeat(3000)],
  ['random unicode, 3 000', randomUnicode(2, 3000)],
  ['lone high surrogate', 'a\ud800b'],
  ['lone low surrogate', '\udfff'],
  ['empty text', ''],
];
const TEXT_ROTATING: Values = [
  ['random unicode, short', randomUnicode(1, 40)],
  ['emoji and flags', '😀🇫🇷👩‍👩‍👧'.repeat(300)],
  ['control characters', '\u0001\u0008\u001b\u007f'],
  ['bidi override and BOM', '\u202e\ufeffabc'],
  ['blanks', '  \t\n  '],
  ['path traversal', '../../../../etc/passwd'],
  ['windows path', '..\\..\\windows\\win.ini'],
  ['SQL', "' OR '1'='1'; DROP TABLE users; --"],
  ['LIKE wildcards', '%_\\%'],
  ['HTML', '<script>alert(1)</script><img src=x onerror=alert(1)>'],
  ['template', `$${'{'}7*7}{{7*7}}`],
];

/** For a number, or a text holding one (an amount, an id, a date). */
const NUMBER_ALWAYS: Values = [
  ['negative', -1],
  ['beyond int4', 2_147_483_648],
  ['1e308', 1e308],
  ['400 digits as text', '9'.repeat(400)],
  ['exponent text', '1e400'],
  ['impossible date', '2026-02-30'],
];
const NUMBER_ROTATING: Values = [
  ['zero', 0],
  ['decimal', 1.5],
  ['beyond 2^53', 2 ** 53 + 2],
  ['-1e308', -1e308],
  ['hexadecimal text', '0x1F'],
  ['year 0', '0000-01-01'],
  ['far date', '275760-09-13'],
];

/** The wrong type, the wrong shape. */
const SHAPE_VALUES: Values = [
  ['true', true],
  ['null', null],
  ['array of texts', ['a', 'b']],
  ['70 000 numbers', Array(70_000).fill(1)],
  ['object nested 500 deep', nested(500)],
];

/** For a list (of ids, of role names, of actions). */
const LIST_VALUES: Values = [
  ['empty list', []],
  ['NUL item', ['\u0000']],
  ['200 000-character item', [HUGE]],
  ['item beyond int4', [2_147_483_648]],
  ['negative item', [-1]],
  ['1 001 items', Array.from({ length: 1001 }, (_, index) => index + 1)],
  ['70 000 items', Array(70_000).fill(1)],
  ['nested lists', [[[1]]]],
  ['a text', 'texte'],
  ['null', null],
];

/** The hostile values of a field, by the type of its value in the valid request. */
function hostileValuesOf(valid: unknown): Values {
  if (Array.isArray(valid)) return LIST_VALUES;
  const shapes = withRotation([], SHAPE_VALUES, 2);
  if (typeof valid === 'number') return [...withRotation(NUMBER_ALWAYS, NUMBER_ROTATING, 2), ...TEXT_ALWAYS.slice(0, 3), ...shapes];
  if (typeof valid === 'boolean') return [['NUL', '\u0000'], ['two', 2], ['text', 'oui'], ...shapes];
  // A field the valid request leaves out (a search's page) may be a text or a number.
  const numeric = valid === undefined || (typeof valid === 'string' && /^[\d-]+$/.test(valid));
  return [...withRotation(TEXT_ALWAYS, TEXT_ROTATING, 3), ...(numeric ? withRotation(NUMBER_ALWAYS, NUMBER_ROTATING, 2) : []), ...shapes];
}

type Texts = ReadonlyArray<readonly [string, string]>;

/** What replaces one query or path parameter, already written for a URL. */
const QUERY_ALWAYS: Texts = [
  ['NUL', '%00'],
  ['NUL inside', 'sant%C3%A9%00x'],
  ['200 000 characters', HUGE],
  ['lone surrogate (CESU bytes)', '%ED%A0%80'],
  ['invalid UTF-8', '%FF%FE'],
  ['bad escape', '%'],
  ['beyond int4', '2147483648'],
  ['400 digits', '9'.repeat(400)],
];
const QUERY_ROTATING: Texts = [
  ['3 000 accented characters', encodeURIComponent('é'.repeat(3000))],
  ['random unicode', encodeURIComponent(randomUnicode(3, 200).replace(/[\ud800-\udfff]/g, '\ufffd'))],
  ['empty', ''],
  ['negative', '-1'],
  ['decimal', '1.5'],
  ['1e308', '1e308'],
  ['path traversal', '..%2F..%2F..%2Fetc%2Fpasswd'],
  ['SQL', encodeURIComponent("1' OR '1'='1")],
];

/** What the route's caller sends in one parameter; admin replays the first two on every route. */
const hostileTextsOf = (caller: Caller, routeCaller: Caller): Texts =>
  caller === 'admin' && routeCaller !== 'admin' ? QUERY_ALWAYS.slice(0, 2) : withRotation(QUERY_ALWAYS, QUERY_ROTATING, 3);

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

type Part = { name: string; value: string } | { name: string; filename: string; content: Buffer; type?: string };

/** A multipart body written by hand, so that names and values may hold anything (NUL, lone surrogates). */
function multipart(parts: Part[], boundary = 'fuzzBoundary7MA4YWxk'): { payload: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      'filename' in part ? `form-data; name="${part.name}"; filename="${part.filename}"` : `form-data; name="${part.name}"`;
    const type = 'filename' in part ? `\r\nContent-Type: ${part.type ?? 'application/pdf'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`));
    chunks.push('filename' in part ? part.content : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface RawBody {
  payload: string | Buffer;
  contentType?: string;
}

/** Whole bodies sent to every route that is not a GET. */
const HOSTILE_BODIES: ReadonlyArray<readonly [string, RawBody]> = [
  ['invalid JSON', { payload: '{"libsecteur":', contentType: 'application/json' }],
  ['empty JSON body', { payload: '', contentType: 'application/json' }],
  ['JSON over 1 MB', { payload: `{"libsecteur":"${'a'.repeat(1_100_000)}"}`, contentType: 'application/json' }],
  ['JSON array', { payload: '[1,2,3]', contentType: 'application/json' }],
  ['JSON string', { payload: '"texte"', contentType: 'application/json' }],
  ['JSON null', { payload: 'null', contentType: 'application/json' }],
  ['JSON number', { payload: '42', contentType: 'application/json' }],
  ['__proto__ pollution', { payload: '{"__proto__":{"isAdmin":true},"libsecteur":"x"}', contentType: 'application/json' }],
  ['constructor pollution', { payload: '{"constructor":{"prototype":{"isAdmin":true}}}', contentType: 'application/json' }],
  ['arrays nested 10 000 deep', { payload: `${'['.repeat(10_000)}${']'.repeat(10_000)}`, contentType: 'application/json' }],
  ['JSON declared UTF-16', { payload: '{"a":1}', contentType: 'application/json; charset=utf-16' }],
  ['text/plain', { payload: 'bonjour', contentType: 'text/plain' }],
  ['form-urlencoded', { payload: 'libsecteur=x%00&search=%00', contentType: 'application/x-www-form-urlencoded' }],
  [
    'XML',
    { payload: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', contentType: 'application/xml' },
  ],
  ['no content type', { payload: '{"a":1}' }],
  ['multipart without file', multipart([{ name: 'name_file', value: 'Sans fichier' }])],
  [
    'multipart with NUL names',
    multipart([
      { name: 'name\u0000file', value: 'a\u0000b' },
      { name: 'file', filename: 'a\u0000.pdf', content: PDF },
    ]),
  ],
  ['multipart without boundary', { payload: 'x', contentType: 'multipart/form-data' }],
  [
    'multipart cut short',
    {
      payload: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF',
      contentType: 'multipart/form-data; boundary=b',
    },
  ],
];

/** The routes that receive every hostile whole body, one of each kind: the others receive the core ones. */
const WHOLE_BODY_ROUTES = new Set([
  'POST /api/login',
  'POST /sectors',
  'POST /sectors-search',
  'POST /reformes',
  'PUT /resultats/:id',
  'POST /files',
  'POST /user-settings',
  'PATCH /profiles/:id',
  'DELETE /sectors/:id',
]);
const CORE_BODIES = new Set([
  'invalid JSON',
  'empty JSON body',
  'JSON null',
  'text/plain',
  'multipart without file',
  'multipart cut short',
]);

/** A valid request of a route: who calls it, its body, its path parameters and its query. */
interface Baseline {
  caller?: Caller;
  body?: (n: number) => Record<string, unknown>;
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  /** A multipart route: the parts of a valid upload, and the names of its text fields and its file field. */
  multipart?: { fields: (n: number) => Record<string, string>; file: string; content: Buffer; type: string };
}

interface Ids {
  draft: number;
  objectif: number;
  resultat: number;
  sector: number;
  structure: number;
  nature: number;
  cover: number;
  entity: number;
  role: number;
  adminRole: number;
  allRole: number;
  victim: number;
  feature: number;
  permission: number;
}

const VICTIM = { email: 'victime.fuzz@reformes.test' };
const ALL = { email: 'tous.droits.fuzz@reformes.test', password: 'Kx7#mQ2!vRzp9Lw-Ybn' };

/** The valid requests, by "METHOD path" under the API base; a route not listed here gets the defaults of `baselineOf`. */
function baselines(ids: Ids): Record<string, Baseline> {
  const reforme = (n: number) => ({
    libref: `Réforme fuzz ${n}`,
    typeref: 'SECTORIELLE',
    nature_id: ids.nature,
    objectif_glob: 'Objectif global',
    popul_cible: 'Usagers',
    couverture_id: ids.cover,
    struct_impl: 'Directions',
    date_debut: '2026-01-01',
    date_fin: '2026-12-31',
    cadreinst_mor: 'Loi',
    etat_mor: 'en_cours',
    montant_prevu: '1000',
    montant_trealise: '10',
    difficult: 'Difficultés',
    solution: 'Solutions',
    perspective: 'Perspectives',
    files: [],
  });
  const structure = (n: number) => ({
    designation: `Structure fuzz ${n}`,
    sigl: 'FZ',
    adresse_struct: '1 rue du Test',
    email: 'fz@fuzz.test',
    telephone: '0700000000',
    sector_id: ids.sector,
  });
  const user = (n: number) => ({
    lastname: 'Fuzz',
    firstname: 'Victime',
    address: 'Cité',
    email: n < 0 ? VICTIM.email : `fuzz.${n}@reformes.test`,
    phone: '0700000001',
    structure_id: ids.structure,
    roles: ['saisie'],
    is_signer: false,
  });
  const objectif = () => ({ libobjectif: 'Objectif fuzz', reforme_id: ids.draft });
  const resultat = () => ({
    objectif_id: ids.objectif,
    libresult: 'Résultat fuzz',
    indicateur: 'Indicateur',
    valeur_cible: 10,
    valeurref: 1,
  });
  const permission = () => ({ feature_id: ids.feature, actions: ['list'], _method: 'patch' });
  const label = (field: string) => (n: number) => ({ [field]: `Libellé fuzz ${n}` });
  return {
    'POST /api/login': { caller: 'anonymous', body: () => ({ email: VICTIM.email, password: 'Pas-le-bon-2026!', device: 'web' }) },
    'POST /api/refresh': { caller: 'anonymous', body: () => ({ refresh_token: 'r'.repeat(43) }) },
    'POST /api/forgot-password': { caller: 'anonymous', body: () => ({ email: VICTIM.email }) },
    'POST /api/recovery-password': {
      caller: 'anonymous',
      body: () => ({ token: 'f'.repeat(64), password: 'Nouveau-Mot-2026!', password_confirmation: 'Nouveau-Mot-2026!' }),
    },
    // Never a matching pair nor the right old password: the caller's session must survive.
    'POST /api/change-first-password': { body: () => ({ password: 'Premier-Mot-2026!', confirm_password: 'Autre-Mot-2026!' }) },
    'POST /api/change-password': {
      body: () => ({ old_password: 'Pas-le-bon-2026!', new_password: 'Nouveau-Mot-2026!', confirm_password: 'Nouveau-Mot-2026!' }),
    },
    'POST /api/user-update': { body: () => ({ lastname: 'Droits', firstname: 'Tous', email: ALL.email, phone: '0700000009' }) },
    'PUT /api/user/reminders': { body: (n) => ({ structure_digest: n % 2 === 0, portfolio_digest: true }) },
    'POST /roles': { body: (n) => ({ name: `role-fuzz-${n}`, canOverwrite: false, guard_name: 'api' }) },
    'PUT /roles/:id': { body: (n) => ({ name: `role-fuzz-cible-${n}`, canOverwrite: false, guard_name: 'api' }) },
    'POST /sectors': { body: label('libsecteur') },
    'PUT /sectors/:id': { body: label('libsecteur') },
    'POST /natures': { body: label('libnature') },
    'PUT /natures/:id': { body: label('libnature') },
    'POST /covers': { body: label('lib_couvert') },
    'PUT /covers/:id': { body: label('lib_couvert') },
    'POST /entities': { body: label('libelle') },
    'PUT /entities/:id': { body: label('libelle') },
    'POST /structures': { body: structure },
    'PUT /structures/:id': { body: structure },
    'POST /permissions': { body: () => ({ feature_id: ids.feature, actions: ['list'] }) },
    // Changing a real permission would change the callers' rights: a missing one still sends every value to the database.
    'POST /permissions/:id': { params: { id: MISSING }, body: permission },
    'PUT /permissions/:id': { params: { id: MISSING }, body: permission },
    'POST /profiles': { body: () => ({ id: ids.role, permissions: [ids.permission] }) },
    'POST /profiles-copy': { body: () => ({ id: ids.adminRole, role_id: ids.role }) },
    'POST /roles-windows-copy': { body: () => ({ old_id: ids.adminRole, new_id: ids.role }) },
    'POST /reformes': { caller: 'saisie', body: reforme },
    'PUT /reformes/:id': { caller: 'saisie', params: { id: ids.draft }, body: reforme },
    'POST /affectations': { caller: 'validation', body: () => ({ reforme_id: MISSING, sens: 1, instruction: 'Motif du retour' }) },
    'POST /objectifs': { caller: 'saisie', body: objectif },
    'PUT /objectifs/:id': { caller: 'saisie', params: { id: ids.objectif }, body: objectif },
    'POST /resultats': { caller: 'saisie', body: resultat },
    'PUT /resultats/:id': { caller: 'saisie', params: { id: ids.resultat }, body: resultat },
    'POST /suivi-results': {
      caller: 'saisie',
      body: () => ({ result_id: ids.resultat, taux_realisat: 10, valeur_realise: 5, date: '2099-12-31' }),
    },
    'GET /suivi-results': { query: { result_id: ids.resultat } },
    'POST /backups/:id': { params: { id: MISSING }, body: () => ({ _method: 'patch', is_active: true }) },
    'POST /get-file': { body: () => ({ folder: 'director', disk: 'local', filename: 'absent.png' }) },
    'POST /get-file2': { body: () => ({ folder: 'director', disk: 'local', filename: 'absent.png' }) },
    'POST /users': { body: user },
    'PUT /users/:id': { params: { id: ids.victim }, body: () => user(-1) },
    'POST /reset-password': {
      body: () => ({ id: ids.victim, email: VICTIM.email, password: 'Reset-Fuzz-2026!', password_confirmation: 'Reset-Fuzz-2026!' }),
    },
    // A challenge that no password step signed: refused before any code is checked, no account is throttled.
    'POST /api/login/2fa': { caller: 'anonymous', body: () => ({ challenge_token: 'defi.faux', code: '123456' }) },
    'POST /api/2fa/enable': { body: () => ({ password: 'Pas-le-bon-2026!', code: '123456' }) },
    'POST /api/2fa/disable': { body: () => ({ password: 'Pas-le-bon-2026!', code: '123456' }) },
    'POST /api/2fa/recovery-codes': { body: () => ({ password: 'Pas-le-bon-2026!', code: '123456' }) },
    // An import line that is valid but never written: check only, or an import refused for its unknown nature.
    'POST /reformes/import/check': {
      caller: 'admin',
      body: () => ({ rows: [{ line: 2, cells: { libref: 'Import fuzz', nature: 'Inconnue' } }] }),
    },
    'POST /reformes/import': {
      caller: 'admin',
      body: () => ({ rows: [{ line: 2, cells: { libref: 'Import fuzz', nature: 'Inconnue' } }] }),
    },
    'POST /reformes/import/preview': {
      caller: 'admin',
      multipart: {
        fields: () => ({}),
        file: 'file',
        content: Buffer.from(`${IMPORT_TEMPLATE.header.join(';')}\r\nImport fuzz`),
        type: 'text/csv',
      },
    },
    'POST /files': {
      caller: 'saisie',
      multipart: { fields: (n) => ({ name_file: `Pièce ${n}` }), file: 'file', content: PDF, type: 'application/pdf' },
    },
    'POST /user-settings': { multipart: { fields: () => ({}), file: 'signature', content: PDF, type: 'image/png' } },
    'POST /user-settings/:id': {
      params: { id: MISSING },
      multipart: { fields: () => ({ _method: 'patch' }), file: 'signature', content: PDF, type: 'image/png' },
    },
  };
}

/** Path-parameter ids of the rows each resource's routes work on; a missing id for anything that could cut a session. */
function resourceIdsOf(ids: Ids): Record<string, number> {
  return {
    sectors: ids.sector,
    structures: ids.structure,
    natures: ids.nature,
    covers: ids.cover,
    entities: ids.entity,
    roles: ids.role,
    users: ids.victim,
    reformes: ids.draft,
    objectifs: ids.objectif,
    resultats: ids.resultat,
  };
}

/** Routes that end the caller's session whatever they receive: called without one. */
const SESSION_ENDING = new Set(['GET /logout']);

interface Failure {
  call: string;
  status: number;
  body: string;
}

describe('hostile input never gives a 500 (issue 14)', () => {
  let t: TestApp;
  const headers = new Map<Caller, Record<string, string>>();
  let ids: Ids;
  let table: Record<string, Baseline>;
  let openapi: { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>> };
  const failures: Failure[] = [];
  let tried = 0;
  let counter = 0;

  const one = async (query: ReturnType<typeof sql>) => (await t.db.execute<{ id: number }>(query)).rows[0].id;

  async function call(caller: Caller, options: InjectOptions, what: string): Promise<LightMyRequestResponse> {
    tried++;
    const response = await t.app.inject({ ...options, headers: { ...(options.headers ?? {}), ...(headers.get(caller) ?? {}) } });
    const isShaped = (() => {
      if (response.statusCode < 400) return true;
      try {
        return typeof response.json().message === 'string';
      } catch {
        return false;
      }
    })();
    if (response.statusCode >= 500 || !isShaped) {
      failures.push({
        call: `${caller}: ${options.method} ${String(options.url).slice(0, 160)} ${what}`,
        status: response.statusCode,
        body: response.body.slice(0, 300),
      });
    }
    return response;
  }

  /** Runs the calls a few at a time: the database serialises them anyway, parsing and validation overlap. */
  async function runAll(calls: Array<() => Promise<unknown>>, concurrency = 4) {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < calls.length) await calls[next++]();
      }),
    );
  }

  const keyOf = (route: RouteEntry) => `${route.method} ${route.url.slice(API_BASE.length)}`;
  const pathParamsOf = (route: RouteEntry) => [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
  const operationOf = (route: RouteEntry) => openapi.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];

  function baselineOf(route: RouteEntry): Required<Pick<Baseline, 'caller' | 'params' | 'query'>> & Baseline {
    const own = table[keyOf(route)] ?? {};
    const segment = route.url.slice(API_BASE.length).split('/')[1];
    // A delete never aims at a real row: only the hostile values of the path table reach it.
    const rowId = route.method === 'DELETE' ? MISSING : (resourceIdsOf(ids)[segment] ?? MISSING);
    const params: Record<string, string | number> = {};
    for (const name of pathParamsOf(route)) {
      params[name] = own.params?.[name] ?? (name === 'state' ? '1' : name === 'role' ? 'admin' : name === 'name' ? 'absent.tar' : rowId);
    }
    const isPublic = route.access === 'public';
    return { ...own, caller: isPublic ? 'anonymous' : (own.caller ?? 'all'), params, query: own.query ?? {} };
  }

  function urlOf(route: RouteEntry, params: Record<string, string | number>, query: Record<string, string | number> = {}) {
    const path = route.url.replace(/:(\w+)/g, (_, name: string) => String(params[name]));
    const search = Object.entries(query)
      .map(([key, value]) => `${key}=${value}`)
      .join('&');
    return search ? `${path}?${search}` : path;
  }

  const bodyFieldsOf = (route: RouteEntry, baseline: Baseline) => {
    const schema = (operationOf(route)?.requestBody as { content?: Record<string, { schema?: { properties?: object } }> } | undefined)
      ?.content?.['application/json']?.schema;
    return [...new Set([...Object.keys(schema?.properties ?? {}), ...Object.keys(baseline.body?.(0) ?? {})])];
  };
  const queryParamsOf = (route: RouteEntry) => (operationOf(route)?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);

  beforeAll(async () => {
    t = await createTestApp({
      LOGIN_MAX_PER_IP_PER_MINUTE: '1000000',
      LOGIN_MAX_FAILURES: '1000000',
      FORGOT_MAX_PER_ACCOUNT_PER_HOUR: '1000000',
      API_DOCS: 'true',
    });
    openapi = t.app.swagger() as typeof openapi;
    const login = async (email: string, password?: string) => bearer((await t.login(email, password)).access_token);
    headers.set('admin', await login('admin@reformes.test'));
    headers.set('saisie', await login('saisie@reformes.test'));
    headers.set('validation', await login('validation@reformes.test'));
    const admin = headers.get('admin') as Record<string, string>;
    const post = async (url: string, payload: object) => {
      const response = await t.app.inject({ method: 'POST', url: `${API_BASE}/${url}`, headers: admin, payload });
      expect(response.statusCode, `${url} ${response.body}`).toBeLessThan(300);
      return response.json().data as { id: number };
    };

    // A role holding every right, and a signer who has it: most routes are fuzzed by this user.
    const allRole = await post('roles', { name: 'fuzz-tous-droits' });
    const permissionIds = (await t.db.execute<{ id: number }>(sql`select id from permissions order by id`)).rows.map((row) => row.id);
    await post('profiles', { id: allRole.id, permissions: permissionIds });
    const ms = await one(sql`select id from structures where sigl = 'MS'`);
    const created = { lastname: 'Droits', firstname: 'Tous', address: 'Cité', phone: '0700000009', structure_id: ms, is_signer: true };
    await post('users', { ...created, email: ALL.email, roles: ['fuzz-tous-droits'] });
    const temporary = /mot de passe temporaire : (\S+)/.exec(t.outbox().find((mail) => mail.includes(ALL.email)) ?? '')?.[1];
    const first = await login(ALL.email, temporary);
    const changed = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}/api/change-first-password`,
      headers: first,
      payload: { password: ALL.password, confirm_password: ALL.password },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    headers.set('all', await login(ALL.email, ALL.password));
    headers.set('anonymous', {});

    const victim = await post('users', { ...created, is_signer: false, email: VICTIM.email, roles: ['saisie'] });
    const draft = await one(sql`select r.id from reformes r join structures s on s.id = r.structure_id
      where s.sigl = 'MS' and r.stage = 1 and not r.is_published and r.is_active order by r.id limit 1`);
    const objectif = await one(sql`select id from objectifs where reforme_id = ${draft} and is_active order by id limit 1`);
    const resultat = await one(sql`select id from resultats where objectif_id = ${objectif} and is_active order by id limit 1`);
    const sector = await post('sectors', { libsecteur: 'Secteur fuzz' });
    ids = {
      draft,
      objectif,
      resultat,
      sector: sector.id,
      structure: (
        await post('structures', {
          designation: 'Structure fuzz',
          sigl: 'SFZ',
          adresse_struct: 'Rue',
          email: 's@fuzz.test',
          telephone: '0700000000',
          sector_id: sector.id,
        })
      ).id,
      nature: (await post('natures', { libnature: 'Nature fuzz' })).id,
      cover: (await post('covers', { lib_couvert: 'Couverture fuzz' })).id,
      entity: (await post('entities', { libelle: 'Entité fuzz' })).id,
      role: (await post('roles', { name: 'fuzz-cible' })).id,
      adminRole: await one(sql`select id from roles where name = 'admin'`),
      allRole: allRole.id,
      victim: victim.id,
      feature: await one(sql`select id from features order by id limit 1`),
      permission: permissionIds[0],
    };
    table = baselines(ids);
  }, 120_000);

  afterAll(async () => {
    console.info(`${tried} hostile inputs tried, ${failures.filter((failure) => failure.status >= 500).length} answers >= 500`);
    await t?.close();
  });

  it('answers the inputs of the outside review with the right 4xx and a French message', async () => {
    const all = headers.get('all') as Record<string, string>;
    const send = (options: InjectOptions) => t.app.inject({ ...options, headers: { ...all, ...(options.headers ?? {}) } });

    const longLabel = await send({ method: 'POST', url: `${API_BASE}/sectors`, payload: { libsecteur: 'x'.repeat(200_000) } });
    expect(longLabel.statusCode).toBe(422);
    expect(longLabel.json().errorsList).toEqual({ libsecteur: ['Ce champ ne doit pas dépasser 255 caractères'] });

    const nul = await send({ method: 'POST', url: `${API_BASE}/natures`, payload: { libnature: 'Nature\u0000' } });
    expect(nul.json()).toMatchObject({ errorsList: { libnature: ['Caractère non autorisé'] } });
    const publicSearch = await t.app.inject({ method: 'GET', url: `${API_BASE}/reformes/public/suivi-result?search=a%00b` });
    expect(publicSearch.statusCode).toBe(422);
    expect(publicSearch.json().errorsList).toEqual({ search: ['Caractère non autorisé'] });

    const longText = { ...baselines(ids)['POST /reformes'].body?.(counter++), difficult: 'd'.repeat(5001) };
    const saisie = await t.app.inject({ method: 'POST', url: `${API_BASE}/reformes`, headers: headers.get('saisie'), payload: longText });
    expect(saisie.json().errorsList).toEqual({ difficult: ['Ce champ ne doit pas dépasser 5\u202f000 caractères'] });

    const json = (payload: string, contentType = 'application/json') =>
      send({ method: 'POST', url: `${API_BASE}/sectors`, payload, headers: { 'content-type': contentType } });
    expect((await json('{"libsecteur":')).statusCode).toBe(400);
    expect((await json('')).statusCode).toBe(400);
    const huge = await json(`{"libsecteur":"${'a'.repeat(1_100_000)}"}`);
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ message: 'La requête est trop volumineuse.' });
    expect((await json('libsecteur=x', 'application/x-www-form-urlencoded')).json()).toMatchObject({
      message: 'Type de contenu non pris en charge.',
    });

    const withoutFile = multipart([{ name: 'name_file', value: 'Sans fichier' }]);
    const upload = (payload: Buffer | string, contentType: string) =>
      t.app.inject({
        method: 'POST',
        url: `${API_BASE}/files`,
        headers: { ...headers.get('saisie'), 'content-type': contentType },
        payload,
      });
    expect((await upload(withoutFile.payload, withoutFile.contentType)).json()).toMatchObject({
      errorsList: { file: ['Le fichier est requis'] },
    });
    const noBoundary = await upload('x', 'multipart/form-data');
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toMatchObject({ message: 'Le formulaire envoyé est mal formé.' });
  });

  it('has a valid baseline for every route that takes a body', () => {
    const missing = t.app.routeTable
      .filter((route) => ['POST', 'PUT', 'PATCH'].includes(route.method))
      .filter((route) => bodyFieldsOf(route, baselineOf(route)).length > 0 || table[keyOf(route)]?.multipart)
      .filter((route) => !table[keyOf(route)]?.body && !table[keyOf(route)]?.multipart && !keyOf(route).endsWith('-search'))
      .map(keyOf);
    expect(missing).toEqual([]);
  });

  it('answers every hostile body field below 500, with {message}', async () => {
    const calls: Array<() => Promise<unknown>> = [];
    for (const route of t.app.routeTable) {
      if (SESSION_ENDING.has(keyOf(route))) continue;
      const baseline = baselineOf(route);
      const body = baseline.body ?? (keyOf(route).endsWith('-search') ? () => ({ search: 'abc' }) : undefined);
      if (!body) continue;
      const valid: Record<string, unknown> = body(0);
      for (const field of bodyFieldsOf(route, { ...baseline, body })) {
        for (const [label, value] of hostileValuesOf(valid[field])) {
          calls.push(() =>
            call(
              baseline.caller,
              { method: route.method as 'POST', url: urlOf(route, baseline.params), payload: { ...body(counter++), [field]: value } },
              `${field} = ${label}`,
            ),
          );
        }
      }
    }
    await runAll(calls);
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers every hostile multipart upload below 500, with {message}', async () => {
    const calls: Array<() => Promise<unknown>> = [];
    for (const route of t.app.routeTable) {
      const baseline = baselineOf(route);
      const upload = baseline.multipart;
      if (!upload) continue;
      const send = (parts: Part[], what: string) => {
        const { payload, contentType } = multipart(parts);
        calls.push(() =>
          call(
            baseline.caller,
            { method: 'POST', url: urlOf(route, baseline.params), payload, headers: { 'content-type': contentType } },
            what,
          ),
        );
      };
      const fieldsOf = (n: number) => Object.entries(upload.fields(n)).map(([name, value]) => ({ name, value }));
      const file = (filename: string, content = upload.content, type = upload.type) => ({ name: upload.file, filename, content, type });
      send(fieldsOf(counter++), 'no file');
      send([file('piece.pdf')], 'file without fields');
      send([...fieldsOf(counter++), file('vide.pdf', Buffer.alloc(0))], 'empty file');
      send([...fieldsOf(counter++), file('image.png', Buffer.from('not a pdf nor an image'), 'image/png')], 'wrong content');
      for (const filename of ['../../etc/passwd', 'a\u0000.pdf', 'é'.repeat(300), '..\\..\\x.pdf', '']) {
        send([...fieldsOf(counter++), file(filename)], `file name ${JSON.stringify(filename.slice(0, 20))}`);
      }
      for (const name of [...Object.keys(upload.fields(0)), 'reforme_id']) {
        for (const [label, value] of [...TEXT_ALWAYS, ...TEXT_ROTATING, ...NUMBER_ALWAYS]) {
          send(
            [...fieldsOf(counter++).filter((part) => part.name !== name), { name, value: String(value) }, file('piece.pdf')],
            `${name} = ${label}`,
          );
        }
      }
    }
    await runAll(calls);
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers every hostile query and path parameter below 500, with {message}, for the route caller and admin', async () => {
    const calls: Array<() => Promise<unknown>> = [];
    for (const route of t.app.routeTable) {
      const baseline = baselineOf(route);
      const callers: Caller[] = SESSION_ENDING.has(keyOf(route)) ? ['anonymous'] : [...new Set<Caller>([baseline.caller, 'admin'])];
      const payload =
        baseline.body?.(0) ??
        (baseline.multipart ? undefined : route.method === 'GET' || route.method === 'DELETE' ? undefined : { search: 'abc' });
      for (const caller of callers) {
        const send = (url: string, what: string) =>
          calls.push(() => call(caller, { method: route.method as 'GET', url, payload: payload && { ...payload } }, what));
        // Routes with no query parameter of their own still get junk in their query string.
        send(`${urlOf(route, baseline.params)}?junk=%00&search=%00&page=-1`, 'junk query');
        for (const name of queryParamsOf(route)) {
          for (const [label, text] of hostileTextsOf(caller, baseline.caller)) {
            send(urlOf(route, baseline.params, { ...baseline.query, [name]: text }), `?${name} = ${label}`);
          }
          send(urlOf(route, baseline.params, { ...baseline.query, [name]: `a&${name}=b` }), `?${name} twice`);
        }
        // Path parameters: never a valid id where the route would delete or toggle a row (the table holds none).
        for (const name of pathParamsOf(route)) {
          for (const [label, text] of hostileTextsOf(caller, baseline.caller)) {
            send(urlOf(route, { ...baseline.params, [name]: text }, baseline.query), `:${name} = ${label}`);
          }
        }
      }
    }
    await runAll(calls);
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers every hostile whole body below 500, with {message}', async () => {
    const calls: Array<() => Promise<unknown>> = [];
    for (const route of t.app.routeTable) {
      if (route.method === 'GET' || SESSION_ENDING.has(keyOf(route))) continue;
      const baseline = baselineOf(route);
      const bodies = WHOLE_BODY_ROUTES.has(keyOf(route)) ? HOSTILE_BODIES : HOSTILE_BODIES.filter(([label]) => CORE_BODIES.has(label));
      for (const [label, body] of bodies) {
        calls.push(() =>
          call(
            baseline.caller,
            {
              method: route.method as 'POST',
              url: urlOf(route, baseline.params),
              payload: body.payload,
              headers: body.contentType ? { 'content-type': body.contentType } : {},
            },
            label,
          ),
        );
      }
    }
    await runAll(calls);
    expect(failures).toEqual([]);
  }, 120_000);

  it('still lets every caller in after the fuzzing (no session was cut, so the 4xx above were real answers)', async () => {
    for (const caller of ['all', 'admin', 'saisie', 'validation'] as const) {
      const response = await t.app.inject({ method: 'GET', url: `${API_BASE}/api/user`, headers: headers.get(caller) });
      expect(response.statusCode, caller).toBe(200);
    }
  });
});
