/**
 * What the bench measures, shared by run.ts and paired.ts: the server's environment, the sign-in, the scenarios'
 * definitions (one place, so that every run of every revision loads the same requests).
 */
import { randomBytes } from 'node:crypto';
import { type BenchParameters, SEARCH_WORD } from './bulk-data.ts';
import type { LoadSpec } from './load.ts';
import { CONNECTIONS, HEALTH_UNDER_LOAD_CONNECTIONS, PASSWORD, PER_PAGE, SATURATION_CONNECTIONS, SECONDS } from './settings.ts';

export function serverEnv(dataDir: string, databaseUrl?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of [
    'DATABASE_URL',
    'DATABASE_POOL_MAX',
    'NODE_ENV',
    'PORT',
    'HOST',
    'STORAGE_DIR',
    'BACKUP_DIR',
    'OUTBOX_DIR',
    'SMTP_URL',
  ])
    delete env[key];
  Object.assign(env, {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    LOGIN_MAX_PER_IP_PER_MINUTE: '100000',
    ACCESS_TOKEN_TTL_SECONDS: '3600',
    SEED_DEMO: 'true',
    // The server refuses its public default secret once DATABASE_URL is set.
    JWT_SECRET: env.JWT_SECRET ?? randomBytes(32).toString('hex'),
  });
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return env;
}

export async function login(baseUrl: string, email: string): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl}/api/v1/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = (await response.json()) as { data?: { access_token?: string } };
  if (response.status !== 200 || !body.data?.access_token) throw new Error(`login ${email}: ${response.status} ${JSON.stringify(body)}`);
  return { authorization: `Bearer ${body.data.access_token}` };
}

/** The three demo sessions the scenarios run as, signed in before the measures. */
export async function signInAll(baseUrl: string) {
  return {
    admin: await login(baseUrl, 'admin@reformes.test'),
    central: await login(baseUrl, 'central@reformes.test'),
    publication: await login(baseUrl, 'publication@reformes.test'),
  };
}

export function scenarios(
  parameters: BenchParameters,
  as: { admin: Record<string, string>; central: Record<string, string>; publication: Record<string, string> },
) {
  // Uniformly random pages over the whole range the pager offers, a new page for every request.
  const randomOf = (total: number) => () => 1 + Math.floor(Math.random() * Math.max(1, Math.ceil(total / PER_PAGE)));
  const listPage = randomOf(parameters.totalReformes);
  const portfolioPage = randomOf(parameters.portfolioTotal);
  const publicPage = randomOf(parameters.publishedTotal);
  const publicPages = Math.max(1, Math.ceil(parameters.publishedTotal / PER_PAGE));
  const listPages = Math.max(1, Math.ceil(parameters.totalReformes / PER_PAGE));
  const portfolioPages = Math.max(1, Math.ceil(parameters.portfolioTotal / PER_PAGE));
  const randomPage = () => `/api/v1/reformes?per_page=${PER_PAGE}&page=${listPage()}`;
  const randomReforme = () =>
    parameters.firstReformeId + Math.floor(Math.random() * (parameters.lastReformeId - parameters.firstReformeId + 1));
  const deepSearchPage = Math.max(1, Math.floor(Math.ceil(parameters.searchTotal / PER_PAGE) * 0.9));
  const word = encodeURIComponent(SEARCH_WORD);
  const spec = (name: string, method: 'GET' | 'POST', p: LoadSpec['path'], headers?: Record<string, string>, body?: unknown) =>
    ({ name, method, path: p, headers, body, connections: CONNECTIONS, seconds: SECONDS }) satisfies LoadSpec;
  return {
    health: spec('1. health (liveness)', 'GET', '/api/v1/health'),
    ready: spec('1b. readiness (one select 1)', 'GET', '/api/v1/health/ready'),
    deepPage: spec(`2. list, random page 1..${listPages}`, 'GET', randomPage, as.publication),
    filtered: spec(
      '3. list, filtered (structure+nature+type)',
      'GET',
      `/api/v1/reformes?per_page=${PER_PAGE}&page=1&structure_id=${parameters.structureId}&nature_id=${parameters.natureId}&typeref=SECTORIELLE`,
      as.publication,
    ),
    searchFirst: spec('4a. search, page 1', 'POST', `/api/v1/reformes/-search?per_page=${PER_PAGE}&page=1`, as.publication, {
      search: SEARCH_WORD,
    }),
    searchDeep: spec(
      `4b. search, page ${deepSearchPage}`,
      'POST',
      `/api/v1/reformes/-search?per_page=${PER_PAGE}&page=${deepSearchPage}`,
      as.publication,
      { search: SEARCH_WORD },
    ),
    publicList: spec('5a. public list, page 1', 'GET', `/api/v1/reformes/public/suivi-result?per_page=${PER_PAGE}&page=1`),
    publicSearch: spec(
      '5b. public search, page 1',
      'GET',
      `/api/v1/reformes/public/suivi-result?per_page=${PER_PAGE}&page=1&search=${word}`,
    ),
    // The paired runs' public scenario (docs/performance.md, "Paired runs"): a new public page for every request.
    publicRandom: spec(
      `5c. public list, random page 1..${publicPages}`,
      'GET',
      () => `/api/v1/reformes/public/suivi-result?per_page=${PER_PAGE}&page=${publicPage()}`,
    ),
    dashboard: spec('6. dashboard (admin)', 'GET', '/api/v1/dash', as.admin),
    picker: spec(
      '7. follow-up picker search (central)',
      'GET',
      `/api/v1/reformes/users/get-suivi-result?per_page=20&page=1&search=${word}`,
      as.central,
    ),
    portfolio: spec(
      `9a. portfolio, random page 1..${portfolioPages}`,
      'GET',
      () => `/api/v1/portfolio?per_page=${PER_PAGE}&page=${portfolioPage()}`,
      as.central,
    ),
    portfolioFiltered: spec(
      '9b. portfolio, status + nature, page 5',
      'GET',
      `/api/v1/portfolio?per_page=${PER_PAGE}&page=5&status=sans_suivi&nature_id=${parameters.natureId}`,
      as.central,
    ),
    portfolioCounts: spec('9c. portfolio status counters (central)', 'GET', '/api/v1/portfolio/counts', as.central),
    // Issue 32: the "Historique" tab of any reform, its first page (field changes and workflow steps).
    history: spec(
      `11. reform history, random reform ${parameters.firstReformeId}..${parameters.lastReformeId}`,
      'GET',
      () => `/api/v1/reformes/${randomReforme()}/history?per_page=${PER_PAGE}&page=1`,
      as.central,
    ),
    // The cheapest signed-in route: a reference list of a few rows, one query besides the guard's.
    signedIn: spec('10. signed-in, natures (admin)', 'GET', '/api/v1/natures', as.admin),
    saturated: {
      ...spec(`8. list, random page, ${SATURATION_CONNECTIONS} conn.`, 'GET', randomPage, as.publication),
      connections: SATURATION_CONNECTIONS,
    },
    healthUnderLoad: {
      ...spec(`8. health during the saturated list`, 'GET', '/api/v1/health'),
      connections: HEALTH_UNDER_LOAD_CONNECTIONS,
    },
  };
}
