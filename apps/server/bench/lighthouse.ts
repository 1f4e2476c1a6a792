/**
 * Lighthouse on the built app (issues 20, 34, 44): the public list, the login screen and five signed-in screens of
 * the back office (the dashboard, « Liste des réformes », the reform form, « Données de suivi », « Suivi des
 * réformes », each as a demo account that has it in its menu), mobile (Lighthouse's default:
 * simulated slow 4G, 4x CPU slowdown) and desktop (`--preset=desktop`), each run three times by the Lighthouse CLI
 * itself (`lighthouse <url> --chrome-flags="--headless=new --no-sandbox"`, its own fresh Chromium each time), as
 * anyone checking the figures would run it. Prints, per page, the median of the runs' scores and of each metric,
 * TBT and TTI beside the score, and every run's score. The server is started the operator's way (`npm run serve`,
 * embedded database, demo data) on a free loopback port. See docs/performance.md.
 *
 *   npm run lighthouse                               # builds, then measures
 *   LIGHTHOUSE_RUNS=5 LIGHTHOUSE_PRESETS=mobile npm run lighthouse
 *   LIGHTHOUSE_URL=http://127.0.0.1:3000 npm run lighthouse   # measure a server that already runs
 *
 * The JSON report of every run is kept in .tmp/lighthouse/ for a closer look.
 *
 * A signed-in screen is measured as the CLI measures too, on a Chromium of its own for each run (chrome-launcher):
 * the account signs in through the API, its session is written into that browser's localStorage on a page of the
 * origin that loads no script (`/api/v1/health`, through puppeteer-core, Lighthouse's own driver), then the CLI is
 * pointed at the browser (`--port`) with `--disable-storage-reset` so that the session stays; the browser is new, so
 * nothing of the app is in its cache. LIGHTHOUSE_PAGES=/admin/dashboard,/accueil picks pages.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SESSION_KEYS, writeSignIn } from '@reformes/domain';
import { launch } from 'chrome-launcher';
import type lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { REPO_ROOT, type ServerHandle, startServer } from './server.ts';

type Result = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];
type Preset = 'mobile' | 'desktop';
const run = promisify(execFile);
const LIGHTHOUSE_CLI = path.join(REPO_ROOT, 'node_modules/lighthouse/cli/index.js');

/** The signed-in screens and the demo account that has each in its menu (saisie has no « Liste des réformes »). */
const SIGNED_IN_PAGES: Record<string, string> = {
  '/admin/dashboard': 'saisie@reformes.test',
  '/admin/list-reformes': 'central@reformes.test',
  '/admin/create-reforme': 'saisie@reformes.test',
  '/admin/follow-reforme-create': 'saisie@reformes.test',
  '/admin/follow-reformes': 'saisie@reformes.test',
};
const DEMO_PASSWORD = 'Reformes2026!';
const PUBLIC_PAGES = ['/accueil', '/auth/login'];
const PAGES = process.env.LIGHTHOUSE_PAGES?.split(',').map((page) => page.trim()) ?? [...PUBLIC_PAGES, ...Object.keys(SIGNED_IN_PAGES)];
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const PRESETS = (process.env.LIGHTHOUSE_PRESETS ?? 'mobile,desktop').split(',').map((preset) => preset.trim()) as Preset[];
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const REPORT_DIR = path.join(REPO_ROOT, '.tmp', 'lighthouse');

if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('LIGHTHOUSE_RUNS must be a positive integer');
for (const preset of PRESETS) {
  if (preset !== 'mobile' && preset !== 'desktop') throw new Error(`LIGHTHOUSE_PRESETS: mobile or desktop, not ${preset}`);
}
if (!fs.existsSync(CHROME_PATH)) throw new Error(`Chromium is missing (${CHROME_PATH}): apt-get install -y chromium, or set CHROME_PATH`);

/**
 * The CLI's own flags, nothing else: an earlier version of this bench called Lighthouse's node API with its own
 * Chromium flags (`--disable-gpu`, `--disable-dev-shm-usage`) and printed `computeMedianRun`, the run nearest the
 * median FCP and TTI rather than the median score; docs/performance.md ("Issue 34") tells what that hid.
 */
const presetFlags: Record<Preset, string[]> = { mobile: [], desktop: ['--preset=desktop'] };

/** One run; Lighthouse now and then fails to record a trace (NO_NAVSTART, NO_FCP): such a run is made again, twice at most. */
async function measure(url: string, preset: Preset, file: string, attempt = 1): Promise<Result> {
  try {
    return await measureOnce(url, preset, file);
  } catch (error) {
    if (attempt >= 3) throw error;
    console.log(`  ${(error as Error).message.split('\n')[0]}: once more`);
    return measure(url, preset, file, attempt + 1);
  }
}

async function measureOnce(url: string, preset: Preset, file: string): Promise<Result> {
  const account = SIGNED_IN_PAGES[new URL(url).pathname];
  const signedIn = account !== undefined;
  const chrome = signedIn ? await launch({ chromePath: CHROME_PATH, chromeFlags: ['--headless=new', '--no-sandbox'] }) : undefined;
  try {
    if (chrome) await writeSession(new URL(url).origin, chrome.port, account);
    await run(
      process.execPath,
      [
        LIGHTHOUSE_CLI,
        url,
        ...(chrome ? [`--port=${chrome.port}`, '--disable-storage-reset'] : ['--chrome-flags=--headless=new --no-sandbox']),
        '--output=json',
        `--output-path=${file}`,
        '--quiet',
        ...presetFlags[preset],
      ],
      { env: { ...process.env, CHROME_PATH }, maxBuffer: 64 * 1024 * 1024 },
    );
  } finally {
    chrome?.kill();
  }
  const lhr = JSON.parse(fs.readFileSync(file, 'utf8')) as Result;
  // A session that did not hold lands on the sign-in page: that would be measured instead, silently.
  if (signedIn && new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
    throw new Error(`${url}: the session did not hold, Lighthouse ended on ${lhr.finalDisplayedUrl}`);
  }
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return lhr;
}

/**
 * Signs `email` in through the API and writes the session the way the sign-in page does (the domain's
 * writeSignIn) into the localStorage of the browser on `port`, from a page of `origin` that loads no script.
 */
async function writeSession(origin: string, port: number, email: string): Promise<void> {
  const answer = await fetch(`${origin}/api/v1/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD, device: 'web' }),
  });
  if (!answer.ok) throw new Error(`sign-in of ${email}: ${answer.status} ${await answer.text()}`);
  const entries = new Map<string, string>();
  const store = {
    getItem: (key: string) => entries.get(key) ?? null,
    setItem: (key: string, value: string) => void entries.set(key, value),
    removeItem: (key: string) => void entries.delete(key),
  };
  writeSignIn(store, ((await answer.json()) as { data: Parameters<typeof writeSignIn>[1] }).data);
  if (!entries.has(SESSION_KEYS.accessToken)) throw new Error('the session has no access token');
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}` });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/api/v1/health`);
    // Run in the page, where localStorage exists (this file is type-checked without the DOM's types).
    await page.evaluate(
      (stored: Array<[string, string]>) => {
        const storage = (globalThis as unknown as { localStorage: { setItem: (key: string, value: string) => void } }).localStorage;
        for (const [key, value] of stored) storage.setItem(key, value);
      },
      [...entries],
    );
    await page.close();
  } finally {
    await browser.disconnect();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
const numeric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;
const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const kib = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('fr-FR')} KiB`;

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
}

/** Compressed bytes of the scripts the page downloaded while it loaded. */
function scriptBytes(lhr: Result): number {
  const details = lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined;
  return (details?.items ?? []).filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

/** What keeps a category under 100, for the median run. */
function shortcomings(lhr: Result): string[] {
  const lines: string[] = [];
  for (const [id, category] of Object.entries(lhr.categories)) {
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight === 0 || audit.score === null || audit.score >= 0.9) continue;
      if (id === 'performance' && ref.group !== 'metrics') continue;
      lines.push(`${id}: ${audit.title} (${audit.displayValue ?? Math.round((audit.score ?? 0) * 100)})`);
    }
  }
  return lines;
}

/** The median over the runs of each figure (scores and metrics apart), then every run's performance score. */
function row(page: string, runs: Result[]): string {
  const of = (value: (lhr: Result) => number) => median(runs.map(value));
  return [
    page,
    of((lhr) => score(lhr, 'performance')),
    `${Math.round(of((lhr) => numeric(lhr, 'total-blocking-time')))} ms`,
    sec(of((lhr) => numeric(lhr, 'interactive'))),
    sec(of((lhr) => numeric(lhr, 'largest-contentful-paint'))),
    sec(of((lhr) => numeric(lhr, 'first-contentful-paint'))),
    of((lhr) => numeric(lhr, 'cumulative-layout-shift')).toFixed(3),
    kib(of((lhr) => numeric(lhr, 'total-byte-weight'))),
    kib(of(scriptBytes)),
    of((lhr) => score(lhr, 'accessibility')),
    of((lhr) => score(lhr, 'best-practices')),
    of((lhr) => score(lhr, 'seo')),
    runs.map((lhr) => score(lhr, 'performance')).join(', '),
  ].join(' | ');
}

async function main() {
  let server: ServerHandle | undefined;
  let baseUrl = process.env.LIGHTHOUSE_URL;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reformes-lighthouse-'));
  try {
    if (!baseUrl) {
      if (!fs.existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) throw new Error('apps/web/dist is missing: npm run build');
      server = await startServer(
        { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', SEED_DEMO: 'true', DATABASE_URL: undefined },
        path.join(dataDir, 'server.log'),
      );
      baseUrl = server.baseUrl;
    }
    fs.mkdirSync(REPORT_DIR, { recursive: true });
    const load = os
      .loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    console.log(`Lighthouse CLI, ${RUNS} runs per page and preset on ${baseUrl} (Chromium ${CHROME_PATH}); load average ${load}`);
    for (const preset of PRESETS) {
      const measured: Array<[string, Result[]]> = [];
      for (const page of PAGES) {
        const runs: Result[] = [];
        for (let index = 1; index <= RUNS; index++) {
          const file = path.join(REPORT_DIR, `${preset}${page.replaceAll('/', '-')}-${index}.json`);
          const lhr = await measure(`${baseUrl}${page}`, preset, file);
          runs.push(lhr);
          console.log(
            `  ${preset} ${page} run ${index}: performance ${score(lhr, 'performance')}, TBT ${Math.round(numeric(lhr, 'total-blocking-time'))} ms, TTI ${sec(numeric(lhr, 'interactive'))}`,
          );
        }
        measured.push([page, runs]);
      }
      console.log(`\n${preset} (median of ${RUNS} runs, figure by figure)\n`);
      console.log(
        '| page | performance | TBT | TTI | LCP | FCP | CLS | transferred | of which JS | accessibility | best practices | SEO | runs |',
      );
      console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
      for (const [page, runs] of measured) console.log(`| ${row(page, runs)} |`);
      for (const [page, runs] of measured) {
        for (const line of new Set(runs.flatMap(shortcomings))) console.log(`  ${page}: ${line}`);
      }
      console.log(
        `load average after: ${os
          .loadavg()
          .map((value) => value.toFixed(1))
          .join(' ')}\n`,
      );
    }
  } finally {
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
